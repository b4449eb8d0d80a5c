import type { ReasoningRecord, TrialRecord } from '../../schema/trial.js';
import { NOT_SENT_INTERRUPTED } from '../../spend/ledger.js';
import type { Subject } from '../../subjects/subject.js';
import { gradeResponse, responseChannels } from '../../tasks/final-answer.js';
import { apiOutcome, budgetOutcome } from '../../tasks/outcome.js';
import type { ResponseChannels } from '../../tasks/response.js';
import type { AnyTaskPlugin, Prompt, ReadingProfile, TaskInstance } from '../../tasks/task.js';

export interface TrialSpec {
  task: AnyTaskPlugin;
  instance: TaskInstance;
  variant: string;
  /** The task's output-budget rule (default: its first). */
  budget?: string;
  /** Replicate index of this exact request within the run (0 unless an instance is asked again). */
  trialIndex: number;
  signal?: AbortSignal;
  /** The answer-reading profile (default 'final', the symmetric rule; docs/outputs.md). */
  reading?: ReadingProfile;
}

/** What a trial asked and what came back, kept in memory for the cell's examples (src/assays/sweep/examples.ts). */
export interface AnsweredTrial {
  record: TrialRecord;
  instance: TaskInstance;
  prompt: Prompt;
  /** The response's text and reasoning; null when none came (api, budget). */
  response: { text: string; reasoning?: string; cacheKey?: string } | null;
}

/** Asks the subject once and grades the answer (see answerTrial); the record alone. */
export async function runTrial(subject: Subject, spec: TrialSpec): Promise<TrialRecord> {
  return (await answerTrial(subject, spec)).record;
}

/**
 * Asks the subject once and grades the answer; a transport fault becomes the `api` outcome and a trial the run's
 * spending limit (or Ctrl-C) kept from being sent the `budget` outcome — both missing data, never a failure.
 */
export async function answerTrial(subject: Subject, spec: TrialSpec): Promise<AnsweredTrial> {
  const { task, instance } = spec;
  const prompt = task.render(instance, spec.variant);
  const { record, response } = await askAndGrade(subject, spec, prompt);
  return { record, instance, prompt, response };
}

/** Which trial a record is: its task, instance (level, seed, profile), replicate and prompt variant. */
const trialIdentity = ({ task, instance, trialIndex, variant }: TrialSpec) => ({
  task: task.id,
  level: instance.level,
  seed: instance.seed,
  trialIndex,
  profile: instance.profile,
  variant,
});

async function askAndGrade(
  subject: Subject,
  spec: TrialSpec,
  prompt: Prompt,
): Promise<Pick<AnsweredTrial, 'record' | 'response'>> {
  const { task, instance, budget, trialIndex, signal } = spec;
  const response = await subject.answer({
    taskId: task.id,
    instance,
    prompt,
    trialIndex,
    maxOutputTokens: task.maxOutputTokens(instance.level, budget),
    signal,
  });
  const base = {
    ...trialIdentity(spec),
    latencyMs: response.latencyMs,
    attempts: response.attempts,
    ...(response.kind !== 'not-sent' && response.billedNoAnswer ? { billedNoAnswer: response.billedNoAnswer } : {}),
    ...(response.kind !== 'not-sent' && response.adapted ? { adapted: response.adapted } : {}),
  };
  if (response.kind === 'error') {
    const outcome = apiOutcome(task.family, response.error, instance.answer);
    return { record: { ...base, outcome, finishReason: null, usage: null, cacheHit: false }, response: null };
  }
  if (response.kind === 'not-sent') {
    const outcome = budgetOutcome(task.family, response.reason, instance.answer);
    // the spend ledger refused it because the run was interrupted (Ctrl-C or SIGTERM with a paid subject)
    const interrupted = response.reason === NOT_SENT_INTERRUPTED ? { interrupted: 'not-sent' as const } : {};
    return {
      record: { ...base, outcome, finishReason: null, usage: null, cacheHit: false, ...interrupted },
      response: null,
    };
  }
  const seen = {
    text: response.text,
    ...(response.reasoning !== undefined ? { reasoning: response.reasoning } : {}),
    ...(response.cacheKey !== undefined ? { cacheKey: response.cacheKey } : {}),
  };
  const served = {
    ...(response.cacheMismatch !== undefined ? { cacheMismatch: response.cacheMismatch } : {}),
    ...(response.servedModel !== undefined ? { servedModel: response.servedModel } : {}),
    ...(response.servedProvider !== undefined ? { servedProvider: response.servedProvider } : {}),
    ...(response.rawFinishReason !== undefined ? { rawFinishReason: response.rawFinishReason } : {}),
    ...(response.batch !== undefined ? { batch: response.batch } : {}),
  };
  if (response.finishReason === 'content_filter') {
    // the provider's moderation removed the output: the provider's doing, missing data, not the model's answer
    const reason = "provider content filter: finish_reason 'content_filter'";
    const outcome = apiOutcome(task.family, reason, instance.answer);
    const record: TrialRecord = {
      ...base,
      outcome,
      finishReason: 'content_filter',
      usage: response.usage,
      cacheHit: response.cacheHit,
      ...served,
    };
    return { record, response: seen };
  }
  // Grading reads the final answer only; the reasoning is recorded beside it, never graded. One read serves both.
  const channels = responseChannels(task, response.text, response.reasoning);
  const context = { finishReason: response.finishReason, ...(spec.reading ? { reading: spec.reading } : {}) };
  const graded = gradeResponse(task, instance, response.text, context, channels);
  // A refusal is the model's own answer (it declined), graded as such (no answer), and flagged.
  const outcome =
    response.refusal !== undefined
      ? { ...graded, issues: [...graded.issues, `refusal: ${response.refusal.slice(0, 200)}`] }
      : graded;
  const reasoning = reasoningRecord(channels);
  const record: TrialRecord = {
    ...base,
    outcome,
    finishReason: response.finishReason,
    usage: response.usage,
    ...(reasoning ? { reasoning } : {}),
    ...(response.refusal !== undefined ? { refusal: { text: response.refusal.slice(0, 2000) } } : {}),
    ...served,
    cacheHit: response.cacheHit,
  };
  return { record, response: seen };
}

function reasoningRecord(channels: ResponseChannels): ReasoningRecord | null {
  if (channels.sources.length === 0 && !channels.unclosed) return null;
  return { chars: channels.reasoning.length, sources: channels.sources, unclosed: channels.unclosed };
}

/** Why a trial cut by an interrupted run has no answer. */
const CUT_REASON = {
  'in-flight': 'the run was interrupted: the request in flight was aborted',
  'not-sent': NOT_SENT_INTERRUPTED,
} as const;

/**
 * A trial the interrupted run cut: `budget` (missing data, never a failure), whether it had started (its request, if
 * sent, was aborted) or not. Nothing is known of its requests here: `attempts` 0 (the spend record counts them).
 */
export function interruptedTrial(spec: TrialSpec, cut: 'in-flight' | 'not-sent'): AnsweredTrial {
  const { task, instance, variant } = spec;
  const record: TrialRecord = {
    ...trialIdentity(spec),
    outcome: budgetOutcome(task.family, CUT_REASON[cut], instance.answer),
    finishReason: null,
    usage: null,
    latencyMs: 0,
    cacheHit: false,
    attempts: 0,
    interrupted: cut,
  };
  return { record, instance, prompt: task.render(instance, variant), response: null };
}
