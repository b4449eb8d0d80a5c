import { APIError } from 'openai';
import type { z } from 'zod';
import { onAbort } from '../openai/abort-fanout.js';
import { ProviderFaultError } from '../openai/completion.js';
import { RequestTimeoutError } from '../openai/request.js';
import { RETRYABLE_STATUS } from '../openai/retry.js';
import {
  type DefinedSubject,
  type SubjectAnswerInput,
  type SubjectMessage,
  type SubjectTrial,
  subjectAnswerSchema,
} from './define.js';

/** The user's function returned something that is not an answer: a bug of the pipeline, never retried (`api`). */
export class MalformedAnswerError extends Error {
  constructor(id: string, problem: string) {
    super(`subject '${id}' returned a malformed answer: ${problem} — answer() must resolve to { text: string, ... }`);
    this.name = 'MalformedAnswerError';
  }
}

export type CheckedAnswer = z.output<typeof subjectAnswerSchema>;

const issuesOf = (error: z.ZodError): string =>
  error.issues
    .map((issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown field(s) ${issue.keys.map((k) => `'${k}'`).join(', ')}`
        : `'${issue.path.join('.') || 'answer'}' ${issue.message}`,
    )
    .join('; ');

/**
 * An error a user's HTTP client threw that carries a status (`status` or `statusCode`, as most clients set it), as
 * the provider fault it is: retried for 408/409/429/5xx, as an OpenAI-compatible request is, else final. Errors of
 * the OpenAI SDK, timeouts and network failures (`fetch` throws a TypeError) pass unchanged: the retry policy
 * (src/subjects/openai/retry.ts) knows them.
 */
export function asProviderFault(error: unknown): unknown {
  if (typeof error !== 'object' || error === null || error instanceof ProviderFaultError) return error;
  if (error instanceof APIError) return error;
  const raw =
    (error as { status?: unknown; statusCode?: unknown }).status ?? (error as { statusCode?: unknown }).statusCode;
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 400 || raw > 599) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderFaultError(`HTTP ${raw}: ${message}`.slice(0, 300), RETRYABLE_STATUS(raw), raw === 429);
}

export interface CallOptions {
  messages: readonly SubjectMessage[];
  maxOutputTokens: number;
  trial: SubjectTrial;
  /** The trial's signal (Ctrl-C, the test's abort). */
  signal?: AbortSignal;
  /** This call's time: the function's signal aborts then, and the call fails with a (retryable) timeout. */
  timeoutMs: number;
}

/**
 * One call of the user's function under its own signal, aborted on the trial's signal or the timeout. The call
 * ends at the first of: the function's answer, its error, the timeout, the abort — a function that ignores its
 * signal cannot hold the trial past them (its late result is dropped). The answer is checked against
 * `subjectAnswerSchema`; anything else throws MalformedAnswerError.
 */
export async function callSubject(subject: DefinedSubject, options: CallOptions): Promise<CheckedAnswer> {
  const controller = new AbortController();
  const ended: Array<() => void> = [];
  const stop = new Promise<never>((_, reject) => {
    const timer = setTimeout(() => {
      const error = new RequestTimeoutError(options.timeoutMs);
      controller.abort(error);
      reject(error);
    }, options.timeoutMs);
    ended.push(() => clearTimeout(timer));
    const outer = options.signal;
    if (outer) {
      const abort = () => {
        controller.abort(outer.reason);
        reject(outer.reason ?? new Error('aborted by the caller'));
      };
      if (outer.aborted) abort();
      else ended.push(onAbort(outer, abort));
    }
  });
  const input: SubjectAnswerInput = {
    messages: options.messages.map((m) => ({ ...m })),
    maxOutputTokens: options.maxOutputTokens,
    signal: controller.signal,
    trial: { ...options.trial },
  };
  const call = Promise.resolve().then(() => subject.answer(input));
  // whichever loses the race settles unobserved: never an unhandled rejection
  call.catch(() => undefined);
  stop.catch(() => undefined);
  let raw: unknown;
  try {
    raw = await Promise.race([call, stop]);
  } catch (error) {
    throw asProviderFault(error);
  } finally {
    for (const end of ended) end();
  }
  const checked = subjectAnswerSchema.safeParse(raw);
  if (!checked.success) throw new MalformedAnswerError(subject.id, issuesOf(checked.error));
  return checked.data;
}
