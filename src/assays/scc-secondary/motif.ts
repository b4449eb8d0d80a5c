import type { ChainUsage } from '../../schema/chain-usage.js';
import type { Subject } from '../../subjects/subject.js';
import { DEFAULT_MOTIF, MOTIFS, resolveMotif } from '../../tasks/count/stimulus.js';
import { runSccAssay, type SccAssayOptions } from '../scc/run.js';
import type { SccResult } from '../scc/schema.js';
import type { MotifAblationResult, MotifRow } from './schema.js';
import { olsSlope } from './smoothing.js';

/**
 * The stimulus ablation of `run_stimulus_ablation.py` (docs/spec/scc.md §9; paper Fig. 2E, Table S11): the SCC ladder
 * once per motif, seed = `seed` + the motif's position in the list (the authors: 7 + case index), with the
 * case's motif in the preflight too. CC is reported relative to the baseline motif (`baseline-a-comma`).
 */
export interface MotifAblationOptions extends Pick<SccAssayOptions, 'maxLength' | 'concurrency' | 'config' | 'signal'> {
  /** Seed of the first motif (the authors: 7). */
  seed: number;
  /** Motif ids in run order (default: the 11 of Table S11). */
  motifs?: readonly string[];
}

/** Input tokens per item: the slope of reported input tokens on the true count over all tier trials. */
export function inputTokensPerItem(result: SccResult): number | null {
  const points = result.tiers.flatMap((tier) =>
    tier.trials.flatMap((t) => (t.inputTokens === null ? [] : [{ x: t.target, y: t.inputTokens }])),
  );
  return olsSlope(points);
}

/** What every trial of a ladder used: the preflight's, each tier's recorded and aborted trials', a stop's. */
function ladderUsage(result: SccResult): ChainUsage[] {
  const stopped = result.stopped;
  const stoppedTier = stopped?.at === 'tier' ? stopped.tier : null;
  const trials = [
    ...(result.preflight ? [result.preflight] : []),
    ...result.tiers.flatMap((t) => t.trials),
    ...(stoppedTier?.trials ?? []),
  ];
  const aborted = [
    ...result.tiers.flatMap((t) => t.abortedUsage ?? []),
    ...(stoppedTier ? [...stoppedTier.abortedUsage, ...stoppedTier.notSentUsage] : []),
    ...(stopped?.at === 'preflight' ? [stopped.usage] : []),
  ];
  return [...trials.flatMap((t) => (t.usage ? [t.usage] : [])), ...aborted];
}

const stopOf = (result: SccResult) =>
  result.stopped ? { by: result.stopped.by, reason: result.stopped.reason, tiers: result.stopped.tiers } : undefined;

export async function runMotifAblation(subject: Subject, options: MotifAblationOptions): Promise<MotifAblationResult> {
  const ids = options.motifs ?? MOTIFS.map((m) => m.id);
  if (ids.length === 0) throw new RangeError('motif ablation needs at least one motif');
  const motifs = ids.map((id) => resolveMotif(id));
  const raw: { motif: (typeof motifs)[number]; seed: number; result: SccResult; tokens: number | null }[] = [];
  for (const [index, motif] of motifs.entries()) {
    const seed = options.seed + index;
    const result = await runSccAssay(subject, {
      seed,
      motif: motif.id,
      maxLength: options.maxLength,
      concurrency: options.concurrency,
      config: options.config,
      signal: options.signal,
    });
    raw.push({ motif, seed, result, tokens: inputTokensPerItem(result) });
    // the ledger refuses every later call too: the motifs after it are not run, and the result says so
    if (result.stopped) break;
  }
  const last = raw[raw.length - 1];
  const lastStop = stopOf(last.result);
  const stopped = lastStop
    ? { ...lastStop, motif: last.motif.id, notRun: motifs.slice(raw.length).map((m) => m.id) }
    : undefined;
  const baseline = raw.find((r) => r.motif.id === DEFAULT_MOTIF.id) ?? null;
  const rows = raw.map(({ motif, seed, result, tokens }): MotifRow => {
    // a stopped ladder's cc is a lower bound: no ratio is taken of it, nor against it
    const measured = baseline !== null && !baseline.result.stopped && !result.stopped;
    const baseCc = baseline?.result.cc ?? 0;
    const baseTokens = baseline?.tokens ?? null;
    const row: MotifRow = {
      motif: motif.id,
      item: motif.item,
      delimiter: motif.delimiter,
      seed,
      skipped: result.skipped,
      cc: result.cc,
      ccLower: result.ccLower,
      ccUpper: result.ccUpper,
      bounded: result.bounded,
      errorBar: result.errorBar,
      ...(result.stopped ? { stopped: stopOf(result) } : {}),
      relativeCc: measured && baseCc > 0 ? result.cc / baseCc : null,
      inputTokensPerItem: tokens,
      relativeInputTokensPerItem: tokens !== null && baseTokens !== null && baseTokens > 0 ? tokens / baseTokens : null,
      path: result.tiers.map((t) => ({ phase: t.phase, center: t.center, passed: t.passed, mape: t.mape })),
      calls: result.calls,
      usage: ladderUsage(result),
    };
    return row;
  });
  return {
    baselineMotif: DEFAULT_MOTIF.id,
    maxLength: raw[0].result.config.maxLength,
    rows,
    ...(stopped ? { stopped } : {}),
  };
}
