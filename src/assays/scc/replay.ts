import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { loadSccLog, type SccLogModel, sccLogReplaySubject } from '../../subjects/replay/scc-log.js';
import { formatAuditOf } from './analyses.js';
import type { SccConfig } from './config.js';
import { runSccAssay, type SccAssayOptions } from './run.js';
import type { SccResult } from './schema.js';

/** The per-model fields of closed.summary.json that a replay needs (docs/spec/scc.md §15.2). */
const summaryModelSchema = z.object({
  skipped: z.boolean().optional().default(false),
  cc: z.number().int(),
  cc_upper_bound: z.number().int().nullable(),
  bounded: z.boolean().optional(),
  cc_error_bar: z.object({ lower: z.number(), upper: z.number() }).optional(),
  trial_count: z.number().int().optional(),
  inferred_seed: z.number().int(),
  rng_draw_mode: z.enum(['upfront', 'lazy']).optional().default('upfront'),
  config_has_parallel_trials_per_batch: z.boolean().optional().default(true),
  evaluations: z
    .array(
      z.object({
        evaluation_index: z.number().int(),
        phase: z.string(),
        center_length: z.number().int(),
        passed: z.boolean(),
      }),
    )
    .optional(),
});

export const sccSummarySchema = z.object({
  search_config: z
    .object({
      initial_length: z.number().int().positive(),
      max_length: z.number().int().positive(),
      samples_per_length: z.number().int().positive(),
      jitter_fraction: z.number(),
      tolerance_fraction: z.number(),
      step_fraction: z.number(),
      parallel_trials_per_batch: z.number().int().positive().optional(),
    })
    .partial()
    .optional(),
  models: z.record(z.string(), summaryModelSchema),
});
export type SccSummary = z.infer<typeof sccSummarySchema>;
export type SccSummaryModel = z.infer<typeof summaryModelSchema>;

export async function loadSccSummary(path: string): Promise<SccSummary> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new Error(
      `${path}: not valid JSON (${error instanceof Error ? error.message : String(error)}); pass the run's summary file`,
    );
  }
  const parsed = sccSummarySchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `${path}: field '${issue.path.join('.')}' ${issue.message}; pass a closed.summary.json-style summary`,
    );
  }
  return parsed.data;
}

export function configFromSummary(summary: SccSummary): Partial<SccConfig> {
  const s = summary.search_config ?? {};
  const config: Partial<SccConfig> = {};
  if (s.initial_length !== undefined) config.initialLength = s.initial_length;
  if (s.max_length !== undefined) config.maxLength = s.max_length;
  if (s.samples_per_length !== undefined) config.samplesPerLength = s.samples_per_length;
  if (s.jitter_fraction !== undefined) config.jitterFraction = s.jitter_fraction;
  if (s.tolerance_fraction !== undefined) config.toleranceFraction = s.tolerance_fraction;
  if (s.step_fraction !== undefined) config.stepFraction = s.step_fraction;
  if (s.parallel_trials_per_batch !== undefined) config.parallelTrialsPerBatch = s.parallel_trials_per_batch;
  return config;
}

export interface SccReplayRow {
  model: string;
  cc: number;
  ccLower: number;
  ccUpper: number | null;
  bounded: boolean;
  /** Trials our ladder issued with early tier decision (preflight included). */
  calls: number;
  /** Trials of the same ladder with full tiers, scheduled as the authors' runner did. */
  callsFullTiers: number;
  /** Trials in the log for this model. */
  callsLogged: number;
  /** Output tokens of the logged trials the early decision did not need (full-tier run minus ours). */
  tokensSaved: number;
  published: { cc: number; ccUpper: number | null; bounded: boolean };
  /** cc, upper bound and bounded flag equal the published ones, with and without early decision. */
  match: boolean;
  /** Where the full-tier replay departs from the log (path, targets, requested budgets, verdicts). */
  discrepancies: string[];
  /** Table S2 categories of every logged response (the full-tier run, preflight included). */
  formatAudit: SccResult['formatAudit'];
}

const pathOf = (r: SccResult) => r.tiers.map((t) => `${t.phase} ${t.center} ${t.passed ? 'pass' : 'fail'}`);

/** Compares the full-tier run with the log trial by trial, with the published tiers, and with our early-decision run. */
function compareWithLog(result: SccResult, ours: SccResult, log: SccLogModel, published: SccSummaryModel): string[] {
  const found: string[] = [];
  const fullPath = pathOf(result);
  if (fullPath.join() !== pathOf(ours).join())
    found.push(`early decision changed the path: ${pathOf(ours).join(', ')}`);
  if (published.evaluations) {
    const logged = published.evaluations.map((e) => `${e.phase} ${e.center_length} ${e.passed ? 'pass' : 'fail'}`);
    if (logged.join() !== fullPath.join()) found.push(`path ${fullPath.join(', ')}; published ${logged.join(', ')}`);
  }
  const bar = published.cc_error_bar;
  if (bar && (bar.lower !== result.errorBar.lower || bar.upper !== result.errorBar.upper)) {
    found.push(`error bar ${JSON.stringify(result.errorBar)}, published ${JSON.stringify(bar)}`);
  }
  const logged = log.trials.filter((t) => t.evaluation_index >= 0);
  const ran = result.tiers.flatMap((tier) => tier.trials.map((trial) => ({ tier, trial })));
  if (ran.length !== logged.length) found.push(`ran ${ran.length} tier trials, the log has ${logged.length}`);
  const byKey = new Map(logged.map((t) => [`${t.evaluation_index}:${t.trial_index}`, t]));
  for (const { tier, trial } of ran) {
    const record = byKey.get(`${tier.evaluationIndex}:${trial.trialIndex}`);
    if (!record) continue;
    if (record.phase !== tier.phase)
      found.push(`evaluation ${tier.evaluationIndex}: phase ${tier.phase}, log ${record.phase}`);
    if (record.requested_max_output_tokens !== trial.requestedMaxOutputTokens) {
      found.push(
        `evaluation ${tier.evaluationIndex} trial ${trial.trialIndex}: requested ${trial.requestedMaxOutputTokens} tokens, log ${record.requested_max_output_tokens}`,
      );
    }
  }
  return found.slice(0, 20);
}

/** Options that run the ladder as the logged runner did: its seed, draw mode and schedule, full tiers. */
export function authorsReplayOptions(published: SccSummaryModel, config: Partial<SccConfig>): SccAssayOptions {
  return {
    seed: published.inferred_seed,
    drawMode: published.rng_draw_mode,
    config,
    exactPeerCalls: true,
    schedule: published.config_has_parallel_trials_per_batch ? 'batch-barrier' : 'sequential',
  };
}

export interface ReplayOptions {
  concurrency?: number;
}

/** Runs our ladder end to end on one model's log: full tiers as the authors scheduled them, then ours. */
export async function replayModel(
  log: SccLogModel,
  published: SccSummaryModel,
  config: Partial<SccConfig>,
  options: ReplayOptions = {},
): Promise<SccReplayRow> {
  const subject = sccLogReplaySubject(log, `replay#${log.model}`);
  const full = await runSccAssay(subject, authorsReplayOptions(published, config));
  const ours = await runSccAssay(subject, {
    seed: published.inferred_seed,
    drawMode: published.rng_draw_mode,
    config,
    earlyDecision: true,
    concurrency: options.concurrency,
  });
  const pub = { cc: published.cc, ccUpper: published.cc_upper_bound, bounded: published.bounded ?? false };
  const same = (r: SccResult) => r.cc === pub.cc && r.ccUpper === pub.ccUpper && r.bounded === pub.bounded;
  return {
    model: log.model,
    cc: ours.cc,
    ccLower: ours.ccLower,
    ccUpper: ours.ccUpper,
    bounded: ours.bounded,
    calls: ours.calls,
    callsFullTiers: full.calls,
    callsLogged: log.trials.length,
    tokensSaved: full.tokensSpent - ours.tokensSpent,
    published: pub,
    match: same(ours) && same(full),
    discrepancies: compareWithLog(full, ours, log, published),
    formatAudit: formatAuditOf(log.model, [full.preflight, ...full.tiers.flatMap((t) => t.trials)]),
  };
}

export async function replaySccLogs(
  trialsPath: string,
  summaryPath: string,
  model?: string,
  options: ReplayOptions = {},
): Promise<SccReplayRow[]> {
  const [logs, summary] = await Promise.all([loadSccLog(trialsPath), loadSccSummary(summaryPath)]);
  const names = model === undefined ? [...logs.keys()] : [model];
  const config = configFromSummary(summary);
  const rows: SccReplayRow[] = [];
  for (const name of names) {
    const log = logs.get(name);
    if (!log) throw new Error(`model '${name}' is not in ${trialsPath}; it has: ${[...logs.keys()].join(', ')}`);
    const published = summary.models[name];
    if (!published) throw new Error(`model '${name}' is not in ${summaryPath}; pass the summary of the same run`);
    rows.push(await replayModel(log, published, config, options));
  }
  return rows;
}
