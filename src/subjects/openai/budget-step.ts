import type { Price } from '../../schema/spend.js';
import type { Usage } from '../../schema/trial.js';
import type { SpendGate } from '../../spend/ledger.js';
import { billedTokens, costOf } from '../../spend/price.js';
import { estimateTokens } from '../usage-estimate.js';

export interface BudgetStepOptions {
  /** The run's spend ledger (src/spend/ledger-client.ts in a worker). */
  gate: SpendGate;
  /** The subject's price (config `prices`), or null: its spend is then counted in calls and tokens only. */
  price: Price | null;
  /** Requests one trial may send (the retry policy's attempts): its cap in calls. */
  maxAttempts: number;
}

export type Admitted = { ok: true } | { ok: false; reason: string };

/** One trial's account with the ledger. */
export interface TrialBudget {
  /**
   * Called before every attempt is sent, under its limiter slot: the first call asks the ledger, later ones (the
   * trial's retries) repeat its answer. Asking only once a slot is held means the trials the ledger counts in
   * flight are the ones the limiter lets through, and a trial still queued when the run stops sends nothing.
   */
  admit(): Promise<Admitted>;
  /** What the trial spent, once it is over; nothing when it was never admitted. */
  settle(outcome: { attempts: number; usage: Usage | null; answered: boolean; billedNoAnswer?: Usage }): Promise<void>;
}

/**
 * The budget step of the openai subject: between the cache (a hit never asks) and the request. A trial declares
 * its floor (1 request, its prompt tokens by the chars/4 estimate, priced) and its cap (`maxAttempts` requests,
 * prompt + output-budget tokens, priced) and reports what it spent: the requests sent, the provider's tokens and
 * their price. An answer without usage is charged its cap (unknown is not 0); a failure that brought no answer is
 * charged its requests only.
 */
export function createBudgetStep(options: BudgetStepOptions): {
  trial(messages: readonly { content: string }[], outputBudget: number): TrialBudget;
} {
  const { gate, price, maxAttempts } = options;
  const priced = (prompt: number, completion: number): number | null =>
    price === null ? null : costOf({ prompt, cachedPrompt: 0, completion, reasoning: 0 }, price);
  const costAt = (usage: Usage): number | null => (price === null ? null : costOf(billedTokens(usage), price));
  return {
    trial(messages, outputBudget) {
      const promptTokens = messages.reduce((sum, m) => sum + estimateTokens(m.content), 0);
      const floor = { calls: 1, tokens: promptTokens, costUsd: priced(promptTokens, 0) };
      const cap = {
        calls: maxAttempts,
        tokens: promptTokens + outputBudget,
        costUsd: priced(promptTokens, outputBudget),
      };
      let admission: Promise<{ id: number } | { reason: string }> | undefined;
      let id: number | undefined;
      return {
        async admit() {
          admission ??= gate.admit({ floor, cap }).then((a) => (a.admitted ? { id: a.id } : { reason: a.reason }));
          const answer = await admission;
          if ('id' in answer) {
            id = answer.id;
            return { ok: true };
          }
          return { ok: false, reason: answer.reason };
        },
        async settle({ attempts, usage, answered, billedNoAnswer }) {
          if (id === undefined) return;
          const settledId = id;
          id = undefined;
          const answer = !answered
            ? { calls: attempts, tokens: 0, costUsd: price === null ? null : 0 }
            : usage === null
              ? { ...cap, calls: attempts }
              : { calls: attempts, tokens: usage.promptTokens + usage.completionTokens, costUsd: costAt(usage) };
          // what the responses that brought no answer billed is spent too
          const extraTokens = billedNoAnswer ? billedNoAnswer.promptTokens + billedNoAnswer.completionTokens : 0;
          const extraCost = billedNoAnswer ? costAt(billedNoAnswer) : 0;
          await gate.settle(settledId, {
            calls: answer.calls,
            tokens: answer.tokens + extraTokens,
            costUsd: answer.costUsd === null || extraCost === null ? null : answer.costUsd + extraCost,
          });
        },
      };
    },
  };
}
