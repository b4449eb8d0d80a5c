import type { z } from 'zod';
import { DEFAULT_GATE_MARGIN } from '../schema/gate.js';

/**
 * The range each threshold gate's value lives in. A value outside it is a unit mistake (`minRetention: 90` for
 * 0.9, a level counted from 0), which the gate would otherwise accept and then fail on every run ("below 90"), or
 * pass on every run (`maxTfbcRate: 30`). Found here, with the fix in the message.
 */
const RANGES = {
  minRetention: { kind: 'fraction', what: 'p_d, the per-step retention' },
  maxTfbcRate: { kind: 'fraction', what: 'the TFBC rate, a share of the correct answers' },
  minHorizon: { kind: 'positive', what: 'H_0.5, a number of steps' },
  minCountingCapacity: { kind: 'positive', what: 'the counting capacity, a number of items' },
  collapseNoEarlierThan: { kind: 'positive', what: 'λ*, a puzzle level (L1 is 1)' },
} as const;

/** The fix for a value out of its range, or undefined when it is in range. */
export function gateRangeFix(gate: string, value: number): string | undefined {
  const range = RANGES[gate as keyof typeof RANGES];
  if (range === undefined) return undefined;
  if (!Number.isFinite(value)) return `${range.what} needs a finite number`;
  if (range.kind === 'fraction') {
    if (value >= 0 && value <= 1) return undefined;
    const percent = value > 1 && value <= 100 ? ` — if ${value} is a percentage, write ${value / 100}` : '';
    return `${range.what} is a fraction: give a value in [0, 1]${percent}`;
  }
  return value > 0 ? undefined : `${range.what}: give a value > 0`;
}

/** Adds one issue per threshold gate out of range (a bare number or the object form's `value`). */
export function checkGateRanges(gates: Record<string, unknown>, ctx: z.RefinementCtx): void {
  for (const [gate, raw] of Object.entries(gates)) {
    const value = typeof raw === 'number' ? raw : (raw as { value?: unknown } | undefined)?.value;
    if (typeof value !== 'number') continue;
    const fix = gateRangeFix(gate, value);
    if (fix === undefined) continue;
    ctx.addIssue({
      code: 'custom',
      message: `${value} is out of range`,
      path: typeof raw === 'number' ? [gate] : [gate, 'value'],
      params: { fix },
    });
  }
}

/**
 * The gates whose statistic has no test with stated errors here (docs/gates.md#error-controlled-gates): λ* is the
 * level of the steepest accuracy step (an argmax over levels, with no likelihood to test a threshold on), and the
 * counting capacity is what an adaptive ladder's answers made it. `evidence: 'test'` on them is refused rather than
 * silently read as the point estimate; their lines say "(no error control)".
 */
const UNTESTABLE = {
  collapseNoEarlierThan:
    'λ* is the level of the steepest accuracy step (an argmax), which has no likelihood-ratio test',
  minCountingCapacity: "the counting capacity is the ladder's outcome, which has no likelihood-ratio test",
} as const;

/** Adds one issue per `evidence: 'test'` a gate cannot take, or whose margin leaves no alternative in range. */
export function checkGateTests(gates: Record<string, unknown>, ctx: z.RefinementCtx): void {
  for (const [gate, raw] of Object.entries(gates)) {
    if (typeof raw !== 'object' || raw === null) continue;
    const {
      evidence,
      value,
      margin = DEFAULT_GATE_MARGIN,
    } = raw as { evidence?: unknown; value?: unknown; margin?: number };
    if (evidence !== 'test' || typeof value !== 'number') continue;
    const why = UNTESTABLE[gate as keyof typeof UNTESTABLE];
    if (why !== undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `evidence 'test' is not available for ${gate}`,
        path: [gate, 'evidence'],
        params: { fix: `${why}: use evidence 'point' (its line says "no error control")` },
      });
    } else if (gate === 'maxTfbcRate' && !(value + margin < 1)) {
      ctx.addIssue({
        code: 'custom',
        message: `margin ${margin} above ${value} leaves no rate below 1 to test against`,
        path: [gate, 'margin'],
        params: { fix: 'give a margin with value + margin < 1' },
      });
    } else if (gate === 'minRetention' && !(value - margin > 0 && value < 1)) {
      ctx.addIssue({
        code: 'custom',
        message: `the test needs 0 < value − margin < value < 1 (value ${value}, margin ${margin})`,
        path: [gate, 'margin'],
        params: { fix: 'give a threshold below 1 and a margin smaller than it' },
      });
    }
  }
}
