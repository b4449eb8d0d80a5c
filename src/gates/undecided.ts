import type { ThresholdGateName } from '../config/schema.js';
import type { CollapseFit, RetentionFit } from '../schema/fit.js';
import { COLLAPSE_STEP, retentionTrialsPerCell, twoRateTrials } from '../stats/sample-size.js';

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

/** The note a threshold gate's line carries when its sample cannot decide it; '' otherwise. */
export function undecidedNote(
  gate: ThresholdGateName,
  record: RetentionFit | CollapseFit | { kind: 'scc' },
  threshold: number,
): string {
  if (record.kind === 'retention' && gate === 'minRetention') return retentionNote(record, threshold);
  if (record.kind === 'retention' && gate === 'minHorizon') return horizonNote(record, threshold);
  if (record.kind === 'collapse' && gate === 'collapseNoEarlierThan') return collapseNote(record, threshold);
  // the TFBC rate and the counting capacity carry no interval to compare
  return '';
}
