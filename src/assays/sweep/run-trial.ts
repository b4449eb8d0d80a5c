import type { ReasoningRecord, TrialRecord } from '../../schema/trial.js';
import type { Subject } from '../../subjects/subject.js';
import { gradeResponse } from '../../tasks/final-answer.js';
import { apiOutcome, budgetOutcome } from '../../tasks/outcome.js';
import { type ResponseChannels, readResponse } from '../../tasks/response.js';
import type { AnyTaskPlugin, TaskInstance } from '../../tasks/task.js';

export interface TrialSpec {
  task: AnyTaskPlugin;
  instance: TaskInstance;
  variant: string;
  /** The task's output-budget rule (default: its first). */
  budget?: string;
  /** Replicate index of this exact request within the run (0 unless an instance is asked again). */
  trialIndex: number;
  signal?: AbortSignal;
}

/**
 * Asks the subject once and grades the answer; a transport fault becomes the `api` outcome and a trial the run's
 * spending limit (or Ctrl-C) kept from being sent the `budget` outcome — both missing data, never a failure.
 */
export async function runTrial(subject: Subject, spec: TrialSpec): Promise<TrialRecord> {
  const { task, instance, variant, budget, trialIndex, signal } = spec;
  const response = await subject.answer({
    taskId: task.id,
    instance,
    prompt: task.render(instance, variant),
    trialIndex,
    maxOutputTokens: task.maxOutputTokens(instance.level, budget),
    signal,
  });
  const base = {
    task: task.id,
    level: instance.level,
    seed: instance.seed,
    trialIndex,
    profile: instance.profile,
    variant,
    latencyMs: response.latencyMs,
    attempts: response.attempts,
  };
  if (response.kind === 'error') {
    const outcome = apiOutcome(task.family, response.error, instance.answer);
    return { ...base, outcome, finishReason: null, usage: null, cacheHit: false };
  }
  if (response.kind === 'not-sent') {
    const outcome = budgetOutcome(task.family, response.reason, instance.answer);
    return { ...base, outcome, finishReason: null, usage: null, cacheHit: false };
  }
  const served = {
    ...(response.servedModel !== undefined ? { servedModel: response.servedModel } : {}),
    ...(response.servedProvider !== undefined ? { servedProvider: response.servedProvider } : {}),
  };
  if (response.finishReason === 'content_filter') {
    // the provider's moderation removed the output: the provider's doing, missing data, not the model's answer
    const reason = "provider content filter: finish_reason 'content_filter'";
    const outcome = apiOutcome(task.family, reason, instance.answer);
    return {
      ...base,
      outcome,
      finishReason: 'content_filter',
      usage: response.usage,
      cacheHit: response.cacheHit,
      ...served,
    };
  }
  // Grading reads the final answer only; the reasoning is recorded beside it, never graded. One read serves both.
  const channels = readResponse(response.text, response.reasoning);
  const graded = gradeResponse(task, instance, response.text, { finishReason: response.finishReason }, channels);
  // A refusal is the model's own answer (it declined), graded as such (no answer), and flagged.
  const outcome =
    response.refusal !== undefined
      ? { ...graded, issues: [...graded.issues, `refusal: ${response.refusal.slice(0, 200)}`] }
      : graded;
  const reasoning = reasoningRecord(channels);
  return {
    ...base,
    outcome,
    finishReason: response.finishReason,
    usage: response.usage,
    ...(reasoning ? { reasoning } : {}),
    ...(response.refusal !== undefined ? { refusal: { text: response.refusal.slice(0, 2000) } } : {}),
    ...served,
    cacheHit: response.cacheHit,
  };
}

function reasoningRecord(channels: ResponseChannels): ReasoningRecord | null {
  if (channels.sources.length === 0 && !channels.unclosed) return null;
  return { chars: channels.reasoning.length, sources: channels.sources, unclosed: channels.unclosed };
}
