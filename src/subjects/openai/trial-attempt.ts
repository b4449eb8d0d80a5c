import { PyRandom } from '../../rng/index.js';
import type { Usage } from '../../schema/trial.js';
import { addUsage } from '../../spend/usage-sum.js';
import type { TrialBudget } from './budget-step.js';
import type { ChatMessage } from './request-body.js';

/**
 * The state of one trial across its attempts (openai-subject.ts): what every attempt sends and accounts to, what
 * the attempts left besides an answer, and the trial's seeded retry jitter.
 */

/** Seeded jitter for a trial's retries; built on the first retry only (a string seed costs ~0.3 ms). */
export function lazyRetryRng(key: string): () => PyRandom {
  let rng: PyRandom | undefined;
  return () => {
    rng ??= new PyRandom(`ceilingbench-retry|${key}`);
    return rng;
  };
}

/**
 * What one trial's attempts left besides its answer: the usage its responses carried though they brought no answer
 * (summed), and what its rejected requests taught the subject (recorded on the trial that learned it).
 */
export class NoAnswerBill {
  usage: Usage | undefined;
  readonly adapted: string[] = [];

  add(usage: Usage): void {
    this.usage = this.usage === undefined ? usage : (addUsage(this.usage, usage) ?? undefined);
  }
}

/** What every attempt of one trial sends and accounts to: the same across the retry loop. */
export interface TrialAttempt {
  messages: ChatMessage[];
  /** The trial's output-token budget. */
  budget: number;
  /** The trial's cache key (sent as its trial header). */
  key: string;
  signal: AbortSignal | undefined;
  /** The trial's spend-ledger account, when the run has a ledger. */
  account: TrialBudget | undefined;
  billed: NoAnswerBill;
  /** Time the trial spent waiting at the gate and for a limiter slot: not part of its latency. */
  waited: { ms: number };
  /** Whether an attempt of this trial was refused for the rate already (limiter-step.ts: only the first teaches the pace). */
  refused: { before: boolean };
}
