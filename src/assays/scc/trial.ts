import { SccFatalError } from '../../errors.js';
import type { ChainUsage } from '../../schema/chain-usage.js';
import type { SccTrial, SccTrialRecord } from '../../schema/scc.js';
import type { Subject, TrialRequest } from '../../subjects/subject.js';
import { resolveTask } from '../../tasks/registry.js';
import type { AnyTaskPlugin, Prompt, TaskInstance } from '../../tasks/task.js';
import { askUnderBudgetRule, type BudgetedAnswer, type BudgetedError, type RuleOutcome } from './budget-rule.js';

/**
 * One SCC trial (`run_trial`, docs/spec/scc.md §6) in two plain steps: `askTrial` asks the subject under the budget
 * rule (./budget-rule.ts: double the output budget while the answer is cut at the budget without any integer, up
 * to the retry ceiling) and resolves to how the chain ended; `trialOutcomeOf` scores that end as the authors do.
 * Neither calls back into the other.
 */
/** A trial as the ladder keeps it: the result schema's trial (src/schema/scc.ts), its usage always recorded. */
export type { SccTrialRecord };
export type TrialStatus = SccTrial['status'];

export { SccFatalError };

/**
 * A trial the run's spend ledger kept from being sent (a spending limit was reached, or the run was interrupted).
 * It is missing data, and SCC has no missing-data rule: a tier short of a trial has no verdict (an error trial
 * would fail it, a dropped one could pass it), so the ladder stops — after the trials in flight have landed —
 * and its result is marked `stopped` (no counting capacity is measured, see ./stopped.ts). A rerun with a larger
 * limit replays the answered trials from the response cache and carries on. `usage`: what the trial's calls
 * before the refused one used (budget doublings).
 */
export class TrialNotSentError extends Error {
  constructor(
    readonly reason: string,
    readonly usage: ChainUsage,
  ) {
    super(
      `${reason} — the SCC ladder stopped before its counting capacity was determined (no CC is measured); ` +
        'rerun with a larger limit to resume from the response cache',
    );
    this.name = 'TrialNotSentError';
  }
}

export interface TrialSpec {
  subject: Subject;
  taskId: string;
  /**
   * The ladder plugin as the registry hands it out (grading the final answer only: src/tasks/final-answer.ts);
   * default: the registered plugin `taskId`.
   */
  task?: AnyTaskPlugin;
  instance: TaskInstance;
  prompt: Prompt;
  /** The prompt variant the instance was rendered with (default: the plugin's first), for the format audit. */
  variant?: string;
  trialIndex: number;
  budget: number;
  retryMaxOutputTokens: number;
  signal: AbortSignal;
}

/**
 * How a trial ended: answered (a record, error trials included), or aborted through `signal` (its record is
 * dropped; `usage` is what its calls had used, null when it was aborted before its first call).
 */
export type TrialOutcome = { kind: 'answered'; record: SccTrialRecord } | { kind: 'aborted'; usage: ChainUsage | null };

/**
 * The registered ladder plugin of a trial. Its `parse` and `grade` read the final answer only: reasoning blocks
 * (`<think>…</think>`) are set aside first, so a number in a draft never counts, and an output cut off inside an
 * unclosed block has no answer.
 */
function ladderPlugin(spec: TrialSpec): AnyTaskPlugin & Required<Pick<AnyTaskPlugin, 'ladder'>> {
  const task = spec.task ?? resolveTask(spec.taskId);
  if (task.ladder === undefined) throw new Error(`task '${task.id}' declares no ladder (src/tasks/ladder.ts)`);
  return task as AnyTaskPlugin & Required<Pick<AnyTaskPlugin, 'ladder'>>;
}

/** The plugin's grade of an answer, as the ladder records it; `unscorable`: read by the plugin, yet not scored. */
function scoreOf(task: AnyTaskPlugin, spec: TrialSpec, text: string, finishReason: 'length' | null) {
  // the authors' parser (the last integer of the final-answer text), so a replay matches the published scores
  const outcome = task.grade(spec.instance, text, { finishReason, reading: 'authors' });
  if (outcome.family !== 'count')
    throw new Error(`ladder task '${task.id}' graded into '${outcome.family}', not 'count'`);
  const scored = outcome.kind === 'exact' || outcome.kind === 'inexact' ? outcome : null;
  // the plugin reads an answer it cannot score: counting's squared error overflows (the authors' OverflowError)
  const unscorable = scored === null && task.parse(text).ok;
  return { scored, unscorable };
}

function finish(
  spec: TrialSpec,
  fields: Omit<SccTrialRecord, 'trialIndex' | 'target' | 'parsed' | 'relativeError' | 'exact' | 'format'>,
  finishReason: 'length' | null,
): SccTrialRecord {
  const task = ladderPlugin(spec);
  const target = spec.instance.answer as number;
  let { status, detail } = fields;
  // Error trials are unparsed whatever their text holds (the authors store parsed = None for them).
  const score = status === 'error' ? null : scoreOf(task, spec, fields.text, finishReason);
  if (score?.unscorable) {
    status = 'error';
    detail = 'OverflowError';
  }
  const variant = spec.variant ?? task.variants[0];
  const format = task.ladder.audit(fields.text, { finishReason, transportError: status === 'error', variant });
  const scored = score?.scored ?? null;
  return {
    ...fields,
    status,
    detail,
    trialIndex: spec.trialIndex,
    target,
    parsed: scored ? scored.parsed : null,
    relativeError: scored ? scored.relativeError : null,
    exact: scored?.kind === 'exact',
    format,
  };
}

/** Asks the trial's subject under the budget rule; an already aborted trial makes no call. */
export function askTrial(spec: TrialSpec): Promise<RuleOutcome | null> {
  if (spec.signal.aborted) return Promise.resolve(null);
  const request: TrialRequest = {
    taskId: spec.taskId,
    instance: spec.instance,
    prompt: spec.prompt,
    trialIndex: spec.trialIndex,
    maxOutputTokens: spec.budget,
    signal: spec.signal,
  };
  const task = ladderPlugin(spec);
  // a cut-off answer with nothing the plugin reads has no answer yet: the rule doubles the budget
  const rule = { hasAnswer: (text: string) => task.parse(text).ok, ceiling: spec.retryMaxOutputTokens };
  return askUnderBudgetRule(spec.subject, request, rule);
}

/**
 * The trial's outcome from how its chain ended (`null`: never asked). Throws TrialNotSentError when the run's
 * spend ledger refused one of its calls, and an SccFatalError the subject threw.
 */
export function trialOutcomeOf(spec: TrialSpec, ended: RuleOutcome | null): TrialOutcome {
  if (ended === null) return { kind: 'aborted', usage: null };
  switch (ended.kind) {
    case 'aborted':
      return { kind: 'aborted', usage: ended.chain };
    case 'not-sent':
      throw new TrialNotSentError(ended.reason, ended.chain);
    case 'thrown':
      return { kind: 'answered', record: thrownRecord(spec, ended.error, ended.chain) };
    case 'error':
      return { kind: 'answered', record: errorRecord(spec, ended) };
    case 'answer':
      return { kind: 'answered', record: answerRecord(spec, ended) };
  }
}

/** Runs one trial on its own; resolves to null when it was aborted. */
export async function runSccTrial(spec: TrialSpec): Promise<SccTrialRecord | null> {
  const outcome = trialOutcomeOf(spec, await askTrial(spec));
  return outcome.kind === 'answered' ? outcome.record : null;
}

/** A subject that threw: an error trial at the requested budget (an SccFatalError stops the assay). */
function thrownRecord(spec: TrialSpec, error: unknown, usage: ChainUsage): SccTrialRecord {
  if (error instanceof SccFatalError) throw error;
  const message = error instanceof Error ? error.message : String(error);
  const name = error instanceof Error ? error.name : 'Error';
  const base = { text: `ERROR: ${message}`, status: 'error' as const, detail: name, retryCount: 0 };
  return finish(
    spec,
    {
      ...base,
      requestedMaxOutputTokens: spec.budget,
      finalMaxOutputTokens: spec.budget,
      tokens: null,
      inputTokens: null,
      usage,
    },
    null,
  );
}

const budgetFields = ({ budget }: BudgetedAnswer | BudgetedError) => ({
  requestedMaxOutputTokens: budget.requested,
  retryCount: budget.doublings,
  finalMaxOutputTokens: budget.final,
});

/** A call of the chain failed: the authors keep the text of the attempt before it (docs/spec/scc.md §6.3). */
function errorRecord(spec: TrialSpec, response: BudgetedError): SccTrialRecord {
  const detail = response.error.slice(0, 200);
  const fields = { ...budgetFields(response), text: response.previousText, status: 'error' as const, detail };
  return finish(spec, { ...fields, tokens: null, inputTokens: null, usage: response.chain }, null);
}

function answerRecord(spec: TrialSpec, response: BudgetedAnswer): SccTrialRecord {
  // The record keeps the final call's usage, as the authors' logs do (`output_tokens`).
  const usage = response.finalUsage;
  const tokens = usage ? usage.completionTokens : null;
  const inputTokens = usage ? usage.promptTokens : null;
  const cut = response.finishReason === 'length';
  const blocked = response.finishReason === 'content_filter';
  const status: TrialStatus = cut || blocked ? 'incomplete' : 'completed';
  const detail = cut
    ? `max_output_tokens${response.budget.ceilingReached ? '|retry_limit_reached' : ''}`
    : blocked
      ? 'content_filter'
      : null;
  const fields = { ...budgetFields(response), text: response.text, status, detail, tokens, inputTokens };
  return finish(spec, { ...fields, usage: response.chain }, cut ? 'length' : null);
}

/** `should_promote`: a longer final budget that produced something usable becomes the learned budget. */
export function shouldPromote(trial: SccTrialRecord, current: number): boolean {
  return (
    trial.finalMaxOutputTokens > current &&
    trial.status !== 'error' &&
    !(trial.detail ?? '').includes('retry_limit_reached') &&
    (trial.parsed !== null || trial.text.trim() !== '')
  );
}

/** `abort_worthy`: an error or an exhausted retry ladder after at least one doubling stops the tier. */
export function isAbortWorthy(trial: SccTrialRecord): boolean {
  if (trial.retryCount <= 0) return false;
  if (trial.status === 'error') return true;
  return trial.status === 'incomplete' && (trial.detail ?? '').includes('retry_limit_reached');
}
