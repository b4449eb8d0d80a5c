import type { PyRandom } from '../../rng/index.js';
import type { SimKnobs } from '../task.js';
import { formatResponse } from './variants.js';

/** What the simulated model needs from a domain. */
export interface SimDomain<S> {
  start: S;
  /** The exact transition of step i applied to (possibly already corrupted) state s. */
  step(s: S, i: number): S;
  /** A plausible task-specific mistake at step i; the caller guarantees it differs from `step(s, i)`. */
  mistake(s: S, i: number, rng: PyRandom): S;
  /** A state guaranteed to differ from s (fallback when a mistake happens to coincide). */
  nudge(s: S, rng: PyRandom): S;
  same(a: S, b: S): boolean;
  formatState(s: S): string;
  /** The answer text the simulated model reports for final state s. */
  answerOf(s: S): string;
  /** An answer text guaranteed to differ from `truth` (used when a divergent run lands on the truth). */
  wrongAnswer(s: S, truth: string, rng: PyRandom): string;
}

/**
 * The simulated subject's response, in the task's exact output format.
 *
 * Each step draws `rng.random() < retention`: on success the step's exact transition is applied to the
 * current state, otherwise a domain mistake (guaranteed to differ from the exact transition), and every
 * later step builds on the corrupted state, so an error propagates. The first failed draw at step k
 * therefore makes k* = k. A trajectory with no failed draw is the ground truth, so with recover = 0,
 * P(correct | N) = retention^N exactly: a divergent trajectory that happens to re-converge on the true
 * final state gets a perturbed answer. With probability `recover` (one extra draw, taken only after a
 * divergence) a divergent trajectory reports the true final answer instead — a TFBC trial — so
 * P(correct | N) = p^N + (1 − p^N)·recover. Only `rng` is used.
 */
export function simulateResponse<S>(
  domain: SimDomain<S>,
  depth: number,
  truthAnswer: string,
  rng: PyRandom,
  knobs: SimKnobs,
): string {
  let state = domain.start;
  let diverged = false;
  const steps: string[] = [];
  for (let i = 0; i < depth; i++) {
    const exact = domain.step(state, i);
    if (rng.random() < knobs.retention) {
      state = exact;
    } else {
      diverged = true;
      const wrong = domain.mistake(state, i, rng);
      state = domain.same(wrong, exact) ? domain.nudge(exact, rng) : wrong;
    }
    steps.push(domain.formatState(state));
  }
  let answer = domain.answerOf(state);
  if (diverged) {
    if (rng.random() < knobs.recover) answer = truthAnswer;
    else if (answer === truthAnswer) answer = domain.wrongAnswer(state, truthAnswer, rng);
  }
  return formatResponse(steps, answer);
}
