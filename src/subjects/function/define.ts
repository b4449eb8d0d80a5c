import { z } from 'zod';
import { finishReasonSchema, usageSchema } from '../../schema/trial.js';

/**
 * A subject that is a function: the user's own pipeline (a system prompt and tools around a model, an agent loop,
 * a router, a client for a provider without an OpenAI-compatible endpoint) answers each trial. `defineSubject`
 * only checks and brands the definition; src/subjects/function/function-subject.ts wraps it in the steps every
 * paid subject goes through (response cache, spend ledger, limiter, retries).
 */

/** One message of the trial's prompt, as a chat API takes it. */
export interface SubjectMessage {
  role: 'system' | 'user';
  content: string;
}

/** Which trial is asked (never the instance's truth: a pipeline answers from the messages alone). */
export interface SubjectTrial {
  /** The trial's response-cache key: stable across runs, distinct per replicate. */
  key: string;
  taskId: string;
  level: number;
  /** Replicate index within the cell. */
  index: number;
  /** 1 for the first call of this trial, 2 for its first retry, … */
  attempt: number;
}

export interface SubjectAnswerInput {
  messages: readonly SubjectMessage[];
  /** The output-token budget of the trial (the task's, per level). */
  maxOutputTokens: number;
  /** Aborted on Ctrl-C, on the trial's timeout and when the run stops: pass it on to every request. */
  signal: AbortSignal;
  trial: SubjectTrial;
}

/** What `answer` returns; checked at run time (anything else is an `api` trial, never a crash). */
export const subjectAnswerSchema = z.strictObject({
  /** The final answer text: graded as a provider's message content is. */
  text: z.string(),
  /** A separate reasoning channel, kept and measured, never graded. */
  reasoning: z.string().optional(),
  /** Default 'stop'; 'length' marks an answer cut off by the budget (outcome `truncation`). */
  finishReason: finishReasonSchema.optional(),
  /** Tokens the pipeline spent on this trial, all calls summed; absent: unknown (never counted as 0). */
  usage: usageSchema.optional(),
});
export type SubjectAnswer = z.input<typeof subjectAnswerSchema>;

export interface SubjectDefinition {
  /**
   * The subject's name in reports, labels and the response cache (`function:<id>` is its endpoint there).
   * Letters, digits and `._:/@+-`.
   */
  id: string;
  /**
   * Pins the pipeline's version: part of every cache key, named in the report as pinned. Bump it when the pipeline
   * changes (a new system prompt, another model), so that the next run asks again. Absent, a subject named by its
   * module (`module:…`, or in the configuration file) is known by the hash of its code — the module and what it
   * imports from the repository — so an edit is a new subject to the cache without a bump; otherwise '1'.
   */
  version?: string | number;
  answer(input: SubjectAnswerInput): Promise<SubjectAnswer>;
}

/** Marks a definition made by `defineSubject`, across copies of this module (Vitest may load two). */
export const DEFINED_SUBJECT = Symbol.for('ceilingbench.definedSubject');

export interface DefinedSubject {
  readonly [DEFINED_SUBJECT]: true;
  readonly id: string;
  readonly version: string;
  /**
   * The user gave `version`: the cache and the report trust it. Otherwise a subject named by its module
   * (`module:`, or `function:<id>` of the configuration file) is known by the hash of its code (code-hash.ts).
   */
  readonly pinned?: boolean;
  readonly answer: SubjectDefinition['answer'];
}

const definitionSchema = z.object({
  id: z
    .string()
    .trim()
    .min(1, 'is empty')
    .max(200)
    .regex(/^[A-Za-z0-9._:/@+-]+$/, 'may hold letters, digits and ._:/@+- only'),
  version: z
    .union([z.string().trim().min(1).max(200), z.number().finite()])
    .default('1')
    .transform(String),
  answer: z.custom<SubjectDefinition['answer']>((value) => typeof value === 'function', 'must be a function'),
});

/** A definition that is not one: a usage error at definition time, naming what is wrong. */
export class SubjectDefinitionError extends TypeError {
  constructor(problem: string) {
    super(`defineSubject: ${problem}`);
    this.name = 'SubjectDefinitionError';
  }
}

const issuesOf = (error: z.ZodError): string =>
  error.issues.map((issue) => `'${issue.path.join('.') || 'definition'}' ${issue.message}`).join('; ');

/**
 * Defines a subject that is a function. Use it in `describeSweep(task, { subject })`,
 * `testCountingCapacity({ subject })`, or export it from a module and name that module as a subject:
 * `--subject module:./my-subject.ts#default`, `subjects: ['module:./my-subject.ts#default']`.
 */
export function defineSubject(definition: SubjectDefinition): DefinedSubject {
  const parsed = definitionSchema.safeParse(definition);
  if (!parsed.success) throw new SubjectDefinitionError(issuesOf(parsed.error));
  const { id, version, answer } = parsed.data;
  const pinned = definition.version !== undefined;
  return Object.freeze({ [DEFINED_SUBJECT]: true as const, id, version, pinned, answer });
}

/** Whether a value is a subject `defineSubject` made (of this copy of the package or another). */
export function isDefinedSubject(value: unknown): value is DefinedSubject {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<PropertyKey, unknown>;
  return (
    v[DEFINED_SUBJECT] === true &&
    typeof v.id === 'string' &&
    typeof v.version === 'string' &&
    typeof v.answer === 'function'
  );
}
