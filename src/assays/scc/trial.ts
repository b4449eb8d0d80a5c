import { SccFatalError } from '../../errors.js';
import type { Subject, TrialRequest, TrialResponse } from '../../subjects/subject.js';
import { auditResponse, type FormatCategory } from '../../tasks/count/audit.js';
import { scanLastInteger, scoreCount } from '../../tasks/count/parse.js';
import type { CountInstance } from '../../tasks/count/plugin.js';
import type { Motif } from '../../tasks/count/stimulus.js';
import { readResponse } from '../../tasks/response.js';
import type { Prompt } from '../../tasks/task.js';

/**
 * One SCC trial (`run_trial`, docs/spec/scc.md §6): ask the subject, double the output budget while the answer is
 * cut at the budget without any integer (up to the retry ceiling), then score it as the authors do.
 */
export type TrialStatus = 'completed' | 'incomplete' | 'error';

export interface SccTrialRecord {
  trialIndex: number;
  target: number;
  text: string;
  status: TrialStatus;
  detail: string | null;
  retryCount: number;
  requestedMaxOutputTokens: number;
  finalMaxOutputTokens: number;
  parsed: number | null;
  relativeError: number | null;
  exact: boolean;
  format: FormatCategory;
  /** Output tokens of the final call as the subject reported them (null when unknown). */
  tokens: number | null;
  inputTokens: number | null;
}

export { SccFatalError };

export interface TrialSpec {
  subject: Subject;
  taskId: string;
  instance: CountInstance;
  prompt: Prompt;
  motif?: Motif;
  trialIndex: number;
  budget: number;
  retryMaxOutputTokens: number;
  signal: AbortSignal;
}

/** What an API subject reports when it applied the budget rule itself (src/subjects, optional field). */
interface SubjectBudget {
  requested: number;
  final: number;
  doublings: number;
  ceilingReached: boolean;
}

const subjectBudget = (response: TrialResponse): SubjectBudget | undefined =>
  response.kind === 'answer' ? (response as { budget?: SubjectBudget }).budget : undefined;

/**
 * The count is read from the final answer only: reasoning blocks (`<think>…</think>`) are set aside first, so a
 * number in a draft never counts, and an output cut off inside an unclosed block has no answer.
 */
const scanAnswer = (text: string) => scanLastInteger(readResponse(text).answer);
const hasInteger = (text: string): boolean => scanAnswer(text).kind === 'integer';

function finish(
  spec: TrialSpec,
  fields: Omit<SccTrialRecord, 'trialIndex' | 'target' | 'parsed' | 'relativeError' | 'exact' | 'format'>,
  finishReason: 'length' | null,
): SccTrialRecord {
  const target = spec.instance.answer;
  let { status, detail } = fields;
  // Error trials are unparsed whatever their text holds (the authors store parsed = None for them).
  const scan = status === 'error' ? null : scanAnswer(fields.text);
  const score = scoreCount(scan?.kind === 'integer' ? scan.value : null, target);
  if (score.kind === 'overflow') {
    status = 'error';
    detail = 'OverflowError';
  }
  const format = auditResponse(fields.text, { finishReason, transportError: status === 'error', motif: spec.motif });
  const scored = score.kind === 'scored' ? score : null;
  return {
    ...fields,
    status,
    detail,
    trialIndex: spec.trialIndex,
    target,
    parsed: scored ? scored.parsed : null,
    relativeError: scored ? scored.relativeError : null,
    exact: scored ? scored.exact : false,
    format,
  };
}

/** Runs one trial; resolves to null when it was aborted (early tier decision or the caller's signal). */
export async function runSccTrial(spec: TrialSpec): Promise<SccTrialRecord | null> {
  let budget = spec.budget;
  let retryCount = 0;
  let previousText = '';
  const hasAnswer = (text: string) => hasInteger(text);
  for (;;) {
    if (spec.signal.aborted) return null;
    const request: TrialRequest = {
      taskId: spec.taskId,
      instance: spec.instance,
      prompt: spec.prompt,
      trialIndex: spec.trialIndex,
      maxOutputTokens: budget,
      // A subject that doubles the budget itself must stop at the assay's ceiling, not its own default.
      maxOutputTokensCeiling: spec.retryMaxOutputTokens,
      signal: spec.signal,
      hasAnswer,
    };
    let response: TrialResponse;
    try {
      response = await spec.subject.answer(request);
    } catch (error) {
      if (spec.signal.aborted) return null;
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
        },
        null,
      );
    }
    if (spec.signal.aborted) return null;
    const common = { requestedMaxOutputTokens: spec.budget, retryCount, finalMaxOutputTokens: budget };
    if (response.kind === 'error') {
      return finish(
        spec,
        {
          ...common,
          text: previousText,
          status: 'error',
          detail: response.error.slice(0, 200),
          tokens: null,
          inputTokens: null,
        },
        null,
      );
    }
    const tokens = response.usage ? response.usage.completionTokens : null;
    const inputTokens = response.usage ? response.usage.promptTokens : null;
    const applied = subjectBudget(response);
    const cut = response.finishReason === 'length';
    if (applied) {
      const detail = cut ? `max_output_tokens${applied.ceilingReached ? '|retry_limit_reached' : ''}` : null;
      const fields = {
        text: response.text,
        status: cut ? ('incomplete' as const) : ('completed' as const),
        detail,
        retryCount: applied.doublings,
        requestedMaxOutputTokens: applied.requested,
        finalMaxOutputTokens: applied.final,
        tokens,
        inputTokens,
      };
      return finish(spec, fields, cut ? 'length' : null);
    }
    const blocked = response.finishReason === 'content_filter';
    const status: TrialStatus = cut || blocked ? 'incomplete' : 'completed';
    let detail: string | null = cut ? 'max_output_tokens' : blocked ? 'content_filter' : null;
    if (cut && !hasInteger(response.text)) {
      if (budget < spec.retryMaxOutputTokens) {
        previousText = response.text;
        budget *= 2;
        retryCount++;
        continue;
      }
      detail = 'max_output_tokens|retry_limit_reached';
    }
    return finish(spec, { ...common, text: response.text, status, detail, tokens, inputTokens }, cut ? 'length' : null);
  }
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
