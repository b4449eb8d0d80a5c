import type { SubjectIdentity } from '../schema/subject.js';
import type { Usage } from '../schema/trial.js';
import type { FinishReason, Prompt, TaskInstance } from '../tasks/task.js';

/**
 * Whoever answers a prompt. Network and disk I/O of answering live behind this interface only.
 * `instance` is given so that subjects with known truth (sim, oracle) can answer; an API subject
 * must use `prompt` alone.
 */
export interface TrialRequest {
  taskId: string;
  instance: TaskInstance;
  prompt: Prompt;
  /** Replicate index within the cell: repeated trials are distinct requests, never one cached answer. */
  trialIndex: number;
  maxOutputTokens: number;
  signal?: AbortSignal;
}

/**
 * SCC's output-token budget rule (src/assays/scc/budget-rule.ts), as applied to one trial. A subject answers one
 * request at one budget; only a subject that replays answers which are already final sets `budget` on its
 * answer, and the rule then makes no further call.
 */
export interface BudgetRecord {
  /** Budget at request time. */
  requested: number;
  /** Budget of the last call (= requested · 2^doublings, as in SCC). */
  final: number;
  doublings: number;
  /** True when the ceiling stopped the doubling while the output was still cut off without an answer. */
  ceilingReached: boolean;
}

export type TrialResponse =
  | {
      kind: 'answer';
      text: string;
      /** The provider's separate reasoning channel (`reasoning_content`, `reasoning`); never graded. */
      reasoning?: string;
      /** The model's refusal (`message.refusal`), when it declined. */
      refusal?: string;
      /** The model that served (`response.model`), when the provider said. */
      servedModel?: string;
      /** The upstream provider a router sent the request to (OpenRouter's `provider`), when it said. */
      servedProvider?: string;
      finishReason: FinishReason;
      /** The provider's own finish reason when it differs from `finishReason` (Mistral's `model_length`). */
      rawFinishReason?: string;
      usage: Usage | null;
      latencyMs: number;
      cacheHit: boolean;
      /** Requests sent for this answer, retries included; 0 for a cache hit. */
      attempts: number;
      /** Usage of this trial's attempts that were billed but brought no answer (before the one that did). */
      billedNoAnswer?: Usage;
      /** What this trial's rejected requests taught the subject (`stream only`, `max_completion_tokens`, …). */
      adapted?: string[];
      /** Present when the answer is already the final one of the budget rule (a replay of such answers). */
      budget?: BudgetRecord;
      /** The trial's response-cache key (API subjects): links a record to its cache entry. */
      cacheKey?: string;
      /** The cache held an entry under this key that belonged to another request (why): it was a miss. */
      cacheMismatch?: string;
      /** The provider's batch that answered (`ceilingbench run --batch`), read from the cache entry. */
      batch?: string;
    }
  | {
      /** Transport/provider failure after bounded retries: missing data (outcome `api`). */
      kind: 'error';
      error: string;
      /**
       * The provider refused in a way every further request would repeat (no quota, credentials refused): the
       * subject stopped sending requests, and every later trial fails at once with this (error code
       * CB_PROVIDER_FATAL).
       */
      stopsRun?: boolean;
      /** Usage of the attempts that were billed though they brought no answer (a 200 with empty `choices`, …). */
      billedNoAnswer?: Usage;
      /** What this trial's rejected requests taught the subject. */
      adapted?: string[];
      latencyMs: number;
      attempts: number;
    }
  | {
      /**
       * Never sent: the run's spend ledger refused the trial (a spending limit was reached, or the run was
       * interrupted). Missing data (outcome `budget`), never a model failure; nothing was paid and nothing is
       * cached, so a rerun with a larger limit sends it.
       */
      kind: 'not-sent';
      reason: string;
      latencyMs: number;
      attempts: 0;
    };

/** What a report may say about a subject: never keys or headers. */
export type { SubjectIdentity };

export interface Subject {
  readonly identity: SubjectIdentity;
  answer(request: TrialRequest): Promise<TrialResponse>;
  close?(): Promise<void>;
}
