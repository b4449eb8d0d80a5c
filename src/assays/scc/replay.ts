import { z } from 'zod';
import { loadSccLog, type SccLogModel, sccLogReplaySubject } from '../../subjects/replay/scc-log.js';
import { formatAuditOf } from './analyses.js';
import type { LaunchOrder, PreflightPolicy, SccConfig } from './config.js';
import { compareWithLog } from './replay-compare.js';
import { configFromSummary, loadSccSummary, type SccSummaryModel } from './replay-summary.js';
import { runSccAssay, type SccAssayOptions } from './run.js';
import { formatAuditRowSchema, type SccResult } from './schema.js';

export * from './replay-summary.js';

/**
 * One model of a replay. `error` is null when the model was replayed; otherwise it says why it could not be
 * (a malformed summary entry or log line, a model missing from one of the files, a replay that left the
 * recorded path), our fields are null and the model counts as not matching.
 */
export const sccReplayRowSchema = z.object({
  model: z.string(),
  error: z.string().nullable(),
  /** Our replay skipped the model (its preflight gave no integer or an error): cc 0, upper 32. */
  skipped: z.boolean().nullable(),
  cc: z.number().int().nonnegative().nullable(),
  ccLower: z.number().int().nonnegative().nullable(),
  ccUpper: z.number().int().positive().nullable(),
  bounded: z.boolean().nullable(),
  /** Trials our ladder issued: early tier decision and our schedule (the preflight when it ran). */
  calls: z.number().int().nonnegative(),
  /** Trials of the same ladder with full tiers, scheduled as the authors' runner did. */
  callsFullTiers: z.number().int().nonnegative(),
  /** Trials in the log for this model. */
  callsLogged: z.number().int().nonnegative(),
  /** Output tokens of the logged trials the early decision did not need (full-tier run minus ours). */
  tokensSaved: z.number(),
  /** The summary's values; `bounded` null where the summary has none (a skipped model). Null: no valid entry. */
  published: z
    .object({
      cc: z.number().int().nonnegative(),
      ccUpper: z.number().int().positive().nullable(),
      bounded: z.boolean().nullable(),
      skipped: z.boolean(),
    })
    .nullable(),
  /** cc, upper bound, skipped and (where published) bounded equal the published ones, with and without early decision. */
  match: z.boolean(),
  /** Where the full-tier replay departs from the log (path, targets, requested budgets, verdicts). */
  discrepancies: z.array(z.string()),
  /** Table S2 categories of every logged response (the full-tier run, preflight included). */
  formatAudit: z.array(formatAuditRowSchema),
});
export type SccReplayRow = z.infer<typeof sccReplayRowSchema>;

const publishedOf = (published: SccSummaryModel): NonNullable<SccReplayRow['published']> => ({
  cc: published.cc,
  ccUpper: published.cc_upper_bound,
  bounded: published.bounded,
  skipped: published.skipped,
});

/** The row of a model that could not be replayed. */
export function replayErrorRow(
  model: string,
  error: string,
  published: SccSummaryModel | null,
  callsLogged = 0,
): SccReplayRow {
  return {
    model,
    error,
    skipped: null,
    cc: null,
    ccLower: null,
    ccUpper: null,
    bounded: null,
    calls: 0,
    callsFullTiers: 0,
    callsLogged,
    tokensSaved: 0,
    published: published === null ? null : publishedOf(published),
    match: false,
    discrepancies: [],
    formatAudit: [],
  };
}

/**
 * The seed to replay a model with. A skipped model drew no target, so its summary has no seed and any seed
 * replays its preflight; a model that ran tiers cannot be replayed without the seed of its targets.
 */
export function replaySeed(published: SccSummaryModel): number {
  if (published.inferred_seed !== null) return published.inferred_seed;
  if (published.skipped) return 0;
  throw new Error(
    "the summary's inferred_seed is null for a model that ran tiers; its targets cannot be redrawn without it",
  );
}

/** Options that run the ladder as the logged runner did: its seed, draw mode and schedule, full tiers. */
export function authorsReplayOptions(published: SccSummaryModel, config: Partial<SccConfig>): SccAssayOptions {
  return {
    seed: replaySeed(published),
    drawMode: published.rng_draw_mode,
    config,
    exactPeerCalls: true,
    schedule: published.config_has_parallel_trials_per_batch ? 'batch-barrier' : 'sequential',
  };
}

export interface ReplayOptions {
  concurrency?: number;
  /** Our run's launch order and preflight policy (default: ours, `largest-first` and `if-first-tier-fails`). */
  launchOrder?: LaunchOrder;
  preflight?: PreflightPolicy;
}

/**
 * Options of our own ladder on the same log: the logged seed and draw mode, early tier decision, and our
 * schedule (largest targets first, the preflight only after a failed first tier) unless `options` says otherwise.
 */
export function earlyDecisionReplayOptions(
  published: SccSummaryModel,
  config: Partial<SccConfig>,
  options: ReplayOptions = {},
): SccAssayOptions {
  return {
    seed: replaySeed(published),
    drawMode: published.rng_draw_mode,
    config,
    earlyDecision: true,
    concurrency: options.concurrency,
    launchOrder: options.launchOrder,
    preflight: options.preflight,
  };
}

/** cc, upper bound and the skip equal the published ones; `bounded` too where the summary has it. */
const matchesPublished = (r: SccResult, published: SccSummaryModel) =>
  r.cc === published.cc &&
  r.ccUpper === published.cc_upper_bound &&
  r.skipped === published.skipped &&
  (published.bounded === null || r.bounded === published.bounded);

/**
 * Runs our ladder end to end on one model's log: full tiers as the authors scheduled them, then ours. Throws
 * when the model cannot be replayed (a malformed log line, no seed, a ladder that leaves the recorded path).
 */
export async function replayModel(
  log: SccLogModel,
  published: SccSummaryModel,
  config: Partial<SccConfig>,
  options: ReplayOptions = {},
): Promise<SccReplayRow> {
  const subject = sccLogReplaySubject(log, `replay#${log.model}`);
  const full = await runSccAssay(subject, authorsReplayOptions(published, config));
  // A log without tier trials (a model the authors skipped at the preflight) can answer nothing but the
  // preflight, so our run asks it first there; every other log answers the first tier.
  const tiersLogged = log.trials.some((t) => t.evaluation_index >= 0);
  const oursOptions = tiersLogged ? options : { ...options, preflight: 'first' as const };
  const ours = await runSccAssay(subject, earlyDecisionReplayOptions(published, config, oursOptions));
  return {
    model: log.model,
    error: null,
    skipped: ours.skipped,
    cc: ours.cc,
    ccLower: ours.ccLower,
    ccUpper: ours.ccUpper,
    bounded: ours.bounded,
    calls: ours.calls,
    callsFullTiers: full.calls,
    callsLogged: log.trials.length,
    tokensSaved: full.tokensSpent - ours.tokensSpent,
    published: publishedOf(published),
    match: matchesPublished(ours, published) && matchesPublished(full, published),
    discrepancies: compareWithLog(full, ours, log, published),
    formatAudit: formatAuditOf(log.model, [
      ...(full.preflight ? [full.preflight] : []),
      ...full.tiers.flatMap((t) => t.trials),
    ]),
  };
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Replays every model of a log + summary pair (or only `model`), one row each. A model that cannot be
 * replayed gets a row with its `error`; only an unreadable file, or a `model` in neither file, throws.
 */
export async function replaySccLogs(
  trialsPath: string,
  summaryPath: string,
  model?: string,
  options: ReplayOptions = {},
): Promise<SccReplayRow[]> {
  const [logs, summary] = await Promise.all([loadSccLog(trialsPath), loadSccSummary(summaryPath)]);
  const inSummary = [...Object.keys(summary.models), ...Object.keys(summary.invalid)];
  const all = [...new Set([...logs.keys(), ...inSummary])];
  if (model !== undefined && !all.includes(model)) {
    throw new Error(`model '${model}' is not in ${trialsPath} nor in ${summaryPath}; they have: ${all.join(', ')}`);
  }
  const config = configFromSummary(summary);
  const rows: SccReplayRow[] = [];
  for (const name of model === undefined ? all : [model]) {
    const log = logs.get(name);
    const published = Object.hasOwn(summary.models, name) ? summary.models[name] : null;
    const invalid = Object.hasOwn(summary.invalid, name) ? summary.invalid[name] : null;
    const logged = log?.trials.length ?? 0;
    if (invalid !== null) {
      rows.push(replayErrorRow(name, `${summaryPath}: model '${name}': ${invalid}; fix its entry`, null, logged));
    } else if (published === null) {
      rows.push(replayErrorRow(name, `not in ${summaryPath}; pass the summary of the same run`, null, logged));
    } else if (!log) {
      rows.push(replayErrorRow(name, `no trials in ${trialsPath}; pass the log of the same run`, published));
    } else if (log.error !== null) {
      rows.push(replayErrorRow(name, log.error, published, logged));
    } else {
      try {
        rows.push(await replayModel(log, published, config, options));
      } catch (error) {
        const skip = published.skipped ? ' (published as skipped)' : '';
        rows.push(replayErrorRow(name, `replay failed${skip}: ${messageOf(error)}`, published, logged));
      }
    }
  }
  return rows;
}
