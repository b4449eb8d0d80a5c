import { expect } from 'vitest';
import * as checks from '../gates/checks.js';
import type { RetentionFit } from '../schema/fit.js';
import type { Subject } from '../subjects/subject.js';
import { isSuccess } from '../tasks/outcome.js';
import type { FinishReason, TaskInstance } from '../tasks/task.js';
import { runTask } from './run-task.js';

interface MatcherOutcome {
  pass: boolean;
  message: () => string;
}

interface MatcherThis {
  isNot: boolean;
}

const fromCheck = (check: checks.CheckResult, isNot: boolean): MatcherOutcome => ({
  pass: check.pass,
  message: () => (isNot ? `expected not: ${check.message}` : check.message),
});

/** A matcher that is one threshold check of the received record: passes when the check passes. */
const checkMatcher = <Received, Args extends unknown[]>(
  check: (received: Received, ...args: Args) => checks.CheckResult,
) =>
  function (this: MatcherThis, received: Received, ...args: Args): MatcherOutcome {
    return fromCheck(check(received, ...args), this.isNot);
  };

const isSubject = (x: unknown): x is Subject =>
  typeof x === 'object' && x !== null && 'answer' in x && typeof (x as Subject).answer === 'function';

export const ceilingbenchMatchers = {
  toBeValidTrajectory(
    this: MatcherThis,
    received: string,
    instance: TaskInstance,
    context: { finishReason?: FinishReason } = {},
  ): MatcherOutcome {
    const outcome = runTask(instance.task).grade(instance, received, context);
    // A valid trajectory is right at every step: a right answer after a divergent trace (TFBC) is not.
    // An unreadable trace (k* undefined) is not a valid trajectory either.
    const traceUnreadable = 'traceReadable' in outcome && outcome.traceReadable === false;
    const pass = isSuccess(outcome) && outcome.kStar === -1 && !traceUnreadable;
    const where = outcome.kStar > 0 ? `first divergent step k* = ${outcome.kStar}` : 'no divergent step';
    const lucky = outcome.tfbc ? ', right answer from a divergent trace (TFBC)' : '';
    return {
      pass,
      message: () =>
        pass
          ? `expected the response not to pass the ${instance.task} validator, but it graded ${outcome.kind}`
          : `${instance.task} response graded ${outcome.kind}${lucky} (${where}); issues: ${outcome.issues.join('; ') || 'none'}`,
    };
  },
  toHaveRetentionAtLeast: checkMatcher(
    (received: RetentionFit, p: number, options: { evidence?: 'point' | 'lower' } = {}) =>
      checks.checkRetentionAtLeast(received, p, options.evidence ?? 'point'),
  ),
  toHaveHorizonAtLeast: checkMatcher((received: RetentionFit, steps: number, options: { success?: number } = {}) =>
    checks.checkHorizonAtLeast(received, steps, options.success ?? 0.5),
  ),
  toHaveTfbcRateAtMost: checkMatcher(checks.checkTfbcRateAtMost),
  toCollapseNoEarlierThan: checkMatcher(checks.checkCollapseNoEarlierThan),
  async toHaveCountingCapacityAtLeast(
    this: MatcherThis,
    received: checks.CountingCapacity | Subject,
    n: number,
    options: { seed?: number } = {},
  ): Promise<MatcherOutcome> {
    let result: checks.CountingCapacity = received as checks.CountingCapacity;
    if (isSubject(received)) {
      const { runSccAssay } = await import('../assays/scc/index.js');
      result = await runSccAssay(received, { seed: options.seed ?? 7 });
    }
    const check = checks.checkCountingCapacityAtLeast(result, n);
    // a ladder the spend ledger stopped measured nothing: the assertion fails either way, `.not` included
    if (result.stopped) return { pass: this.isNot, message: () => check.message };
    return fromCheck(check, this.isNot);
  },
};

declare module 'vitest' {
  // No type parameters: Vitest 4.1 declares `Matchers<T = any>`, Vitest 5 `Matchers<R, T>`; a declaration without
  // them merges with either (the matchers return nothing a caller uses: a failed one throws).
  interface Matchers {
    toBeValidTrajectory: (instance: TaskInstance, context?: { finishReason?: FinishReason }) => void;
    toHaveRetentionAtLeast: (p: number, options?: { evidence?: 'point' | 'lower' }) => void;
    toHaveHorizonAtLeast: (steps: number, options?: { success?: number }) => void;
    toHaveTfbcRateAtMost: (rate: number) => void;
    toCollapseNoEarlierThan: (level: number) => void;
    toHaveCountingCapacityAtLeast: (n: number, options?: { seed?: number }) => Promise<void>;
  }
}

/** Registers the matchers on Vitest's global expect (done by src/vitest/setup.ts for every project). */
export function installMatchers(): void {
  expect.extend(ceilingbenchMatchers);
}
