import type { ChainUsage } from '../../schema/chain-usage.js';
import type { Subject } from '../../subjects/subject.js';
import type { FinishReason, Prompt, TaskInstance } from '../../tasks/task.js';
import type { MapLimitOptions } from '../limit.js';
import {
  applyBudgetRule,
  type BudgetedResponse,
  type BudgetRuleOptions,
  SCC_OUTPUT_TOKENS_CEILING,
} from '../scc/budget-rule.js';
import type { SecondaryStop } from './schema.js';

/**
 * One request of a secondary assay, under SCC's budget rule (../scc/budget-rule.ts). The authors' runners double
 * the output budget while the answer is cut at the budget, whether or not it parses (docs/spec/scc.md §12), so
 * by default `hasAnswer` is always false; the ceiling defaults to SCC's 32768. The token counts are the final
 * call's, as the authors record them. A transport failure is missing data, never a model answer; so is a request
 * the run's spending limit (or Ctrl-C) kept from being sent, asked again by a rerun. `usage` is every call's, for
 * the run's accounts (null only when the rule itself failed).
 */
export type Asked =
  | {
      kind: 'answer';
      text: string;
      finishReason: FinishReason;
      inputTokens: number | null;
      outputTokens: number | null;
      usage: ChainUsage;
    }
  | { kind: 'error'; error: string; usage: ChainUsage | null };

export async function ask(
  subject: Subject,
  request: { taskId: string; instance: TaskInstance; prompt: Prompt; trialIndex: number; maxOutputTokens: number },
  signal?: AbortSignal,
  rule: Partial<BudgetRuleOptions> = {},
): Promise<Asked> {
  try {
    const response = await applyBudgetRule<BudgetedResponse | { kind: 'thrown'; error: unknown; chain: ChainUsage }>(
      subject,
      { ...request, signal },
      { hasAnswer: rule.hasAnswer ?? (() => false), ceiling: rule.ceiling ?? SCC_OUTPUT_TOKENS_CEILING },
      (answered) => answered,
      (error, chain) => ({ kind: 'thrown', error, chain }),
    );
    if (response.kind === 'thrown') {
      if (signal?.aborted) throw response.error;
      return { kind: 'error', error: messageOf(response.error), usage: response.chain };
    }
    const usage = response.chain;
    if (response.kind === 'error') return { kind: 'error', error: response.error.slice(0, 200), usage };
    if (response.kind === 'not-sent') return { kind: 'error', error: response.reason.slice(0, 200), usage };
    const final = response.finalUsage;
    return {
      kind: 'answer',
      text: response.text,
      finishReason: response.finishReason,
      inputTokens: final ? final.promptTokens : null,
      outputTokens: final ? final.completionTokens : null,
      usage,
    };
  } catch (error) {
    if (signal?.aborted) throw error;
    return { kind: 'error', error: messageOf(error), usage: null };
  }
}

/** What the spend ledger refused among some asked requests: its first reason and how many; null when none. */
export class NotSentTally {
  private reason: string | null = null;
  private count = 0;

  /** Notes one request's outcome (a refused one is an error whose usage ended `not-sent`). */
  note(asked: Asked): void {
    if (asked.kind !== 'error' || asked.usage?.end !== 'not-sent') return;
    this.reason ??= asked.error;
    this.count++;
  }

  result(): SecondaryStop | undefined {
    return this.reason === null ? undefined : { by: 'budget', reason: this.reason, notSent: this.count };
  }
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error)).slice(0, 200);

/** How a secondary assay's `mapLimit` fails when its caller aborts it before every trial has started. */
export const SECONDARY_ABORT: MapLimitOptions = {
  abortError: () => new Error('SCC secondary assay aborted by the caller'),
};

/** Keeps records small: the first `limit` characters of a response. */
export const clip = (text: string, limit = 300): string => (text.length <= limit ? text : `${text.slice(0, limit)}…`);

export const mean = (values: readonly number[]): number | null =>
  values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;

/** Share of true values among the non-null ones; null when none apply. */
export function rate(values: readonly (boolean | null)[]): number | null {
  const applicable = values.filter((v): v is boolean => v !== null);
  return applicable.length === 0 ? null : applicable.filter(Boolean).length / applicable.length;
}
