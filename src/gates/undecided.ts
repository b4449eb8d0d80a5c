import type { ThresholdGateName } from '../config/schema.js';
import type { CollapseFit, RetentionFit } from '../schema/fit.js';
import { clopperPearson } from '../stats/intervals.js';
import { COLLAPSE_STEP, rateTrials, retentionTrialsPerCell, twoRateTrials } from '../stats/sample-size.js';
import type { CountingCapacity } from './checks.js';

/**
 * A gate whose sample cannot decide it: the 95% interval of what it gates holds the threshold, so the verdict
 * (pass on the point estimate, or fail) is as likely luck as evidence. The verdict stays as the gate's rule gives
 * it; the gate line says so, and how many trials per cell would decide (src/stats/sample-size.ts, docs/gates.md).
 */

/** The words a gate line carries when its sample cannot decide it. */
export const UNDECIDED = 'undecided at this sample size';

/** The gates that passed without their sample deciding it: a pass as likely luck as evidence, said beside the failures. */
export const undecidedPasses = <G extends { passed: boolean; message: string }>(gates: readonly G[]): G[] =>
  gates.filter((g) => g.passed && g.message.includes(UNDECIDED));

const f2 = (x: number) => x.toFixed(2);
const f3 = (x: number) => x.toFixed(3);

/** The smallest difference the note plans for: closer than this, "decide" means "decide within 0.01". */
const MIN_DIFFERENCE = 0.01;

/** The difference to plan for, as printed (two decimals, at least MIN_DIFFERENCE). */
const difference = (estimate: number, threshold: number) =>
  Math.max(MIN_DIFFERENCE, Math.round(Math.abs(estimate - threshold) * 100) / 100);

/** The interval holds the threshold: neither its pass nor its failure is excluded at 95%. */
const straddles = (lower: number, upper: number, threshold: number) => lower < threshold && threshold <= upper;

const depthsOf = (fit: RetentionFit) => fit.counts.filter((c) => c.n > 0).map((c) => c.depth);

const perCell = (n: number | null) => (n === null ? '' : ` — about ${n} trials per cell would decide`);

function retentionNote(fit: RetentionFit, threshold: number): string {
  const [lower, upper] = fit.ci95;
  if (fit.status !== 'ok' || !straddles(lower, upper, threshold)) return '';
  const delta = difference(fit.pd, threshold);
  const n = retentionTrialsPerCell(threshold, delta, depthsOf(fit));
  return `${UNDECIDED}: p_d ${f3(fit.pd)} [${f3(lower)}, ${f3(upper)}] vs ${threshold}${perCell(n)} a difference of ${f2(delta)}`;
}

function horizonNote(fit: RetentionFit, steps: number): string {
  const h = fit.horizon['0.5'];
  if (fit.status !== 'ok' || h === undefined || h.value === null) return '';
  const lower = h.ci95[0] ?? Number.POSITIVE_INFINITY;
  const upper = h.ci95[1] ?? Number.POSITIVE_INFINITY;
  if (!straddles(lower, upper, steps)) return '';
  // H_0.5 = ln 0.5 / ln p_d: the threshold in steps is a threshold in p_d
  const p0 = 0.5 ** (1 / steps);
  const delta = difference(fit.pd, p0);
  const n = retentionTrialsPerCell(p0, delta, depthsOf(fit));
  const upperText = h.ci95[1] === null ? '∞' : f2(upper);
  return `${UNDECIDED}: H_0.5 ${f2(h.value)} [${f2(lower)}, ${upperText}] vs ${steps} (p_d ${f3(p0)})${perCell(n)} a difference in p_d of ${f2(delta)}`;
}

function collapseNote(fit: CollapseFit, level: number): string {
  const t = fit.collapseThreshold;
  if (fit.status !== 'ok' || t.levelIndex === null || t.ci95 === null) return '';
  if (!straddles(t.ci95[0], t.ci95[1], level)) return '';
  const n = twoRateTrials(COLLAPSE_STEP);
  return `${UNDECIDED}: λ* L${t.levelIndex} [L${f2(t.ci95[0])}, L${f2(t.ci95[1])}] vs L${level} — about ${n} trials per level would see an accuracy step of ${COLLAPSE_STEP} between adjacent levels`;
}

/**
 * The TFBC rate is tfbc of `correct` correct answers: its exact 95% interval (Clopper–Pearson) holds an upper
 * threshold when neither "at most" (upper end above it) nor "above" (lower end at or below it) is excluded. The figure
 * is the correct answers, in all, that tell the threshold from the estimate's distance to it (rateTrials).
 */
function tfbcNote(fit: RetentionFit, maxRate: number): string {
  if (fit.status !== 'ok' || fit.tfbcRate === null || fit.correct === 0) return '';
  const [lower, upper] = clopperPearson(fit.tfbc, fit.correct);
  if (!(lower <= maxRate && maxRate < upper)) return '';
  const delta = difference(fit.tfbcRate, maxRate);
  const n = rateTrials(maxRate, delta);
  const needed = n === null ? '' : ` — about ${n} correct answers in all would decide a difference of ${f2(delta)}`;
  return `${UNDECIDED}: TFBC rate ${f3(fit.tfbcRate)} [${f3(lower)}, ${f3(upper)}] (${fit.tfbc}/${fit.correct}) vs ${maxRate}${needed}`;
}

/**
 * The counting capacity is the longest length the ladder passed; the model failed the next length it asked (or the
 * ladder passed its longest). A threshold between the two is a length it never asked: whether the model counts that
 * many is not measured, so the gate's failure there is no evidence. The ladder stops refining within its step (a
 * tenth of the length), and asks nothing above its longest length: no larger sample decides such a threshold.
 */
function capacityNote(record: CountingCapacity, n: number): string {
  if (record.skipped || record.stopped || record.cc >= n) return '';
  if (record.ccUpper !== null && record.ccUpper <= n) return '';
  const why =
    record.ccUpper === null
      ? `the ladder passed its longest length and asks none above it: no sample size decides a threshold above ${record.cc}`
      : `the ladder passed ${record.cc} and failed ${record.ccUpper}, and asks no length between them (it stops refining within its step): no sample size of this ladder decides it`;
  return `${UNDECIDED}: CC ${record.cc} vs ${n} — ${why}`;
}

/** The note a threshold gate's line carries when its sample cannot decide it; '' otherwise. */
export function undecidedNote(
  gate: ThresholdGateName,
  record: RetentionFit | CollapseFit | (CountingCapacity & { kind: 'scc' }),
  threshold: number,
): string {
  if (record.kind === 'retention' && gate === 'minRetention') return retentionNote(record, threshold);
  if (record.kind === 'retention' && gate === 'minHorizon') return horizonNote(record, threshold);
  if (record.kind === 'retention' && gate === 'maxTfbcRate') return tfbcNote(record, threshold);
  if (record.kind === 'collapse' && gate === 'collapseNoEarlierThan') return collapseNote(record, threshold);
  if (record.kind === 'scc' && gate === 'minCountingCapacity') return capacityNote(record, threshold);
  return '';
}
