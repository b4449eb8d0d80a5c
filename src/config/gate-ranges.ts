import type { z } from 'zod';

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
