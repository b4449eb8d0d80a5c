/**
 * The authors' `search_counting_capacity` as a pure state machine (docs/spec/scc.md §3): ask `next()` for the
 * tier to evaluate, report its verdict with `record(passed)`, read `result()` when `next()` is null.
 */

export type LadderPhase = 'expansion' | 'refine';

export interface LadderStep {
  phase: LadderPhase;
  center: number;
}

export interface LadderSettings {
  initialLength: number;
  maxLength: number;
  stepFraction: number;
}

export interface ErrorBar {
  lower: number;
  upper: number;
}

export interface LadderOutcome {
  cc: number;
  ccLower: number;
  /** null when no tier failed (passed maxLength). */
  ccUpper: number | null;
  bounded: boolean;
  errorBar: ErrorBar;
}

/** Python 3 `round(x)` for x ≥ 0: half to even. */
export function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const diff = x - floor;
  if (diff < 0.5) return floor;
  if (diff > 0.5) return floor + 1;
  return floor % 2 === 0 ? floor : floor + 1;
}

/** hi ≤ lo, or hi − lo ≤ max(1, ceil(step · max(1, ceil((lo + hi) / 2)))). */
export function isPrecise(lo: number, hi: number, stepFraction: number): boolean {
  if (hi <= lo) return true;
  const mid = Math.max(1, Math.ceil((lo + hi) / 2));
  return hi - lo <= Math.max(1, Math.ceil(stepFraction * mid));
}

export function refinementMidpoint(lo: number, hi: number): number {
  return Math.max(lo + 1, Math.min(hi - 1, roundHalfEven((lo + hi) / 2)));
}

export function ladderOutcome(lowPass: number, firstFail: number | null, stepFraction: number): LadderOutcome {
  const cc = lowPass;
  const bounded = firstFail !== null;
  return {
    cc,
    ccLower: cc,
    ccUpper: firstFail,
    bounded,
    errorBar: {
      lower: cc <= 0 ? 0 : Math.max(1, Math.floor(cc * stepFraction)),
      upper: firstFail !== null ? Math.max(1, firstFail - cc) : Math.max(1, Math.ceil(cc * stepFraction)),
    },
  };
}

export class LadderSearch {
  private lowPass: number | null = null;
  private firstFail: number | null = null;
  private center: number;
  private phase: LadderPhase = 'expansion';
  private pending: LadderStep | null;
  private done = false;

  constructor(private readonly settings: LadderSettings) {
    this.center = settings.initialLength;
    this.pending = { phase: 'expansion', center: this.center };
  }

  /** The next tier to evaluate, or null when the search has finished. */
  next(): LadderStep | null {
    return this.done ? null : this.pending;
  }

  record(passed: boolean): void {
    const step = this.pending;
    if (!step || this.done) throw new Error('LadderSearch.record called with no tier pending');
    if (step.phase === 'expansion') {
      if (passed) {
        this.lowPass = step.center;
        const nxt = Math.min(this.settings.maxLength, 2 * step.center);
        if (step.center >= this.settings.maxLength || nxt === step.center) {
          this.finishExpansion();
          return;
        }
        this.center = nxt;
        this.pending = { phase: 'expansion', center: nxt };
        return;
      }
      this.firstFail = step.center;
      this.finishExpansion();
      return;
    }
    if (passed) this.lowPass = step.center;
    else this.firstFail = step.center;
    this.scheduleRefinement();
  }

  private finishExpansion(): void {
    if (this.lowPass === null) this.lowPass = 0;
    this.phase = 'refine';
    this.scheduleRefinement();
  }

  private scheduleRefinement(): void {
    const lo = this.lowPass ?? 0;
    const hi = this.firstFail;
    if (hi === null || lo <= 0 || isPrecise(lo, hi, this.settings.stepFraction)) {
      this.done = true;
      this.pending = null;
      return;
    }
    this.pending = { phase: this.phase, center: refinementMidpoint(lo, hi) };
  }

  result(): LadderOutcome {
    if (!this.done) throw new Error('LadderSearch.result called before the search finished');
    return ladderOutcome(this.lowPass ?? 0, this.firstFail, this.settings.stepFraction);
  }
}
