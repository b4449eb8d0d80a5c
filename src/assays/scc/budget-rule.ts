import type { ChainUsage } from '../../schema/chain-usage.js';
import type { Usage } from '../../schema/trial.js';
import { addUsage } from '../../spend/usage-sum.js';
import type { BudgetRecord, Subject, TrialRequest, TrialResponse } from '../../subjects/subject.js';

/**
 * SCC's output-budget rule (docs/spec/scc.md §6.3), a protocol of the SCC assays and never of a transport: ask
 * at the requested budget, and while the answer is cut at the budget (finish_reason 'length') without an answer
 * and the budget is below the ceiling, ask again at twice the budget (4096 → 8192 → 16384 → 32768). CCB and the
 * puzzles do not use it: they ask once at the task's fixed budget, and a cut answer is graded as it stands.
 *
 * Every call is its own request to the subject, so an API subject caches each under its own max-tokens key and a
 * resumed run replays the whole chain from the cache without a request.
 */

/** SCC's `retry_max_output_tokens`. */
export const SCC_OUTPUT_TOKENS_CEILING = 32_768;

export interface BudgetRuleOptions {
  /** Whether a cut-off text already holds an answer (usually the task's parser); if so, no doubling. */
  hasAnswer: (text: string) => boolean;
  /** Doubling stops once the budget is at or above this. */
  ceiling: number;
}

type AnswerResponse = Extract<TrialResponse, { kind: 'answer' }>;
type ErrorResponse = Extract<TrialResponse, { kind: 'error' }>;
type NotSentResponse = Extract<TrialResponse, { kind: 'not-sent' }>;

/** What the chain of calls adds to the last response. */
interface ChainFields {
  budget: BudgetRecord;
  /** Calls made to the subject (1 + doublings, unless the subject applied the rule itself). */
  calls: number;
  /** What every call of the chain used, paid vs from the response cache (what the run's accounts price). */
  chain: ChainUsage;
}

/**
 * The final answer of the chain. `usage` is the sum over every call (each one is billed; null when any call's
 * usage is unknown), `finalUsage` the last call's alone (what the SCC record keeps, as the authors' logs do);
 * `attempts` and `latencyMs` are summed over the calls; `cacheHit` is true only when every call was a hit.
 */
export type BudgetedAnswer = AnswerResponse & ChainFields & { finalUsage: Usage | null };

/**
 * A call of the chain failed (missing data). `budget.final` is the budget of the failing call and
 * `previousText` the text of the call before it ('' when the first call failed), which SCC records.
 */
export type BudgetedError = ErrorResponse & ChainFields & { previousText: string };

/**
 * A call of the chain was never sent (the run's spend ledger refused it): the trial is missing data (outcome
 * `budget`), neither an answer nor a failure. `attempts` counts the requests of the calls before it.
 */
export type BudgetedNotSent = Omit<NotSentResponse, 'attempts'> & { attempts: number } & ChainFields & {
    previousText: string;
  };

export type BudgetedResponse = BudgetedAnswer | BudgetedError | BudgetedNotSent;

export { addUsage };

/**
 * Answers `request` under the budget rule. A subject whose answer already carries a `budget` record applied the
 * rule itself (a replay of final answers): that answer is final, with its doublings added to ours. Error
 * responses end the chain as errors; exceptions thrown by the subject propagate unchanged. When
 * `request.signal` aborts, no further call is made and the last answer is returned.
 */
export function answerWithBudgetRule(
  subject: Subject,
  request: TrialRequest,
  rule: BudgetRuleOptions,
): Promise<BudgetedResponse> {
  return applyBudgetRule(subject, request, rule, (response) => response);
}

/**
 * `answerWithBudgetRule` with the caller's continuation: `then` maps the final response (and `onThrow`, when
 * given, an exception the subject threw) inside the rule's own last step, not one promise tick later. The SCC
 * trial scores through it, so a trial settles in as many ticks as when the rule was inline in the trial: under
 * the early tier decision the trials of a tier in flight together then finish in the same order, and the
 * replay of the released logs (calls and output tokens saved, docs/scc.md) stays identical.
 */
export async function applyBudgetRule<T>(
  subject: Subject,
  request: TrialRequest,
  rule: BudgetRuleOptions,
  then: (response: BudgetedResponse) => T,
  onThrow?: (error: unknown, chain: ChainUsage) => T,
): Promise<T> {
  const requested = request.maxOutputTokens;
  let budget = requested;
  let doublings = 0;
  let calls = 0;
  let attempts = 0;
  let latencyMs = 0;
  let usage: Usage | null | undefined;
  let allHits = true;
  let previousText = '';
  const spent = new ChainTally();
  for (;;) {
    let response: TrialResponse;
    try {
      response = await subject.answer({ ...request, maxOutputTokens: budget });
    } catch (error) {
      // the call that threw is counted, with no usage: what it cost is unknown
      if (onThrow) return onThrow(error, spent.result(calls + 1, attempts, 'error'));
      throw error;
    }
    calls++;
    attempts += response.attempts;
    latencyMs += response.latencyMs;
    if (response.kind !== 'not-sent' && response.billedNoAnswer) spent.billedNoAnswer(response.billedNoAnswer);
    if (response.kind === 'error' || response.kind === 'not-sent') {
      const record: BudgetRecord = { requested, final: budget, doublings, ceilingReached: false };
      const chain = spent.result(calls, attempts, response.kind);
      return then({ ...response, attempts, latencyMs, budget: record, calls, chain, previousText });
    }
    usage = usage === undefined ? response.usage : addUsage(usage, response.usage);
    allHits &&= response.cacheHit;
    spent.answered(response.cacheHit, response.usage);
    const chain = {
      usage,
      finalUsage: response.usage,
      attempts,
      latencyMs,
      cacheHit: allHits,
      calls,
      chain: spent.result(calls, attempts, 'answer'),
    };
    if (response.budget) {
      const applied = response.budget;
      const record: BudgetRecord = {
        requested,
        final: applied.final,
        doublings: doublings + applied.doublings,
        ceilingReached: applied.ceilingReached,
      };
      return then({ ...response, ...chain, budget: record });
    }
    const cutWithoutAnswer = response.finishReason === 'length' && !rule.hasAnswer(response.text);
    // SCC's rule exactly: double while below the ceiling, so final = requested · 2^doublings
    if (cutWithoutAnswer && budget < rule.ceiling && !request.signal?.aborted) {
      previousText = response.text;
      budget *= 2;
      doublings++;
      continue;
    }
    const record: BudgetRecord = {
      requested,
      final: budget,
      doublings,
      ceilingReached: cutWithoutAnswer && budget >= rule.ceiling,
    };
    return then({ ...response, ...chain, budget: record });
  }
}

/** An exception the subject threw, as a value: `chain` counts the call that threw, with no usage. */
export interface ThrownResponse {
  kind: 'thrown';
  error: unknown;
  chain: ChainUsage;
}

/** The request's signal aborted while the chain was in flight: its answer is not kept; `chain` is what it used. */
export interface AbortedResponse {
  kind: 'aborted';
  chain: ChainUsage;
}

/** Every way a chain ends, as a value: answered, failed, not sent, thrown, or aborted. */
export type RuleOutcome = BudgetedResponse | ThrownResponse | AbortedResponse;

/**
 * `answerWithBudgetRule` that returns every end as a value. The abort is read inside the rule's last step (not one
 * promise tick later), so a trial in flight when its tier is decided is dropped exactly when it was before.
 */
export function askUnderBudgetRule(
  subject: Subject,
  request: TrialRequest,
  rule: BudgetRuleOptions,
): Promise<RuleOutcome> {
  const aborted = (chain: ChainUsage): AbortedResponse | null =>
    request.signal?.aborted ? { kind: 'aborted', chain } : null;
  return applyBudgetRule<RuleOutcome>(
    subject,
    request,
    rule,
    (response) => aborted(response.chain) ?? response,
    (error, chain) => aborted(chain) ?? { kind: 'thrown', error, chain },
  );
}

/** The answered calls of a chain, summed apart for those sent in this run and those from the response cache. */
class ChainTally {
  private readonly groups = {
    paid: { calls: 0, usage: null as Usage | null },
    fromCache: { calls: 0, usage: null as Usage | null },
  };

  private noAnswer: Usage | undefined;

  /** Usage billed by responses that brought no answer (summed; never unknown: only responses that carried it). */
  billedNoAnswer(usage: Usage): void {
    this.noAnswer = this.noAnswer === undefined ? usage : (addUsage(this.noAnswer, usage) ?? undefined);
  }

  answered(cacheHit: boolean, usage: Usage | null): void {
    const group = cacheHit ? this.groups.fromCache : this.groups.paid;
    group.usage = group.calls === 0 ? usage : addUsage(group.usage, usage);
    group.calls++;
  }

  result(calls: number, attempts: number, end: ChainUsage['end']): ChainUsage {
    return {
      calls,
      attempts,
      paid: { ...this.groups.paid },
      fromCache: { ...this.groups.fromCache },
      end,
      ...(this.noAnswer ? { billedNoAnswer: this.noAnswer } : {}),
    };
  }
}
