import type { ErrorCode } from '../../errors.js';
import { redact } from '../redact.js';
import { classifyFailure } from './retry.js';

const FATAL_CODE: ErrorCode = 'CB_PROVIDER_FATAL';
const DEFAULT_HINT = 'fix the account or key and rerun';

/** Error texts end up in reports: a provider that echoes the key (or a header value) must not leak it. */
export { redact } from '../redact.js';

/**
 * A subject's stop when no request can succeed (a quota or credential refusal, no such model, a wrong base URL, a
 * wait longer than the retry budget): every further request would fail the same way, so the first such failure
 * stops the subject once, with one clear message, and every later trial fails at once with it
 * (CB_PROVIDER_FATAL), without a request.
 */
export class RunStop {
  #message: string | undefined;

  constructor(private readonly secrets: readonly string[]) {}

  /** The stop message, once stopped. */
  get stopped(): string | undefined {
    return this.#message;
  }

  /** Stops (the first reason wins) and returns the stop message: the reason, then what to do (`hint`). */
  stop(reason: string, hint = DEFAULT_HINT): string {
    this.#message ??= `run stopped (${FATAL_CODE}): ${this.redact(reason)} — ${hint}; cached trials are kept`;
    return this.#message;
  }

  /**
   * Stops if `error` is a refusal that stops the run. Called before the request's limiter slot is freed, so
   * that no trial waiting for that slot sends another request.
   */
  stopIfFatal(error: unknown, signal?: AbortSignal): void {
    const failure = classifyFailure(error, signal);
    if (failure.kind === 'fatal' && failure.stopsRun) this.stop(failure.reason, failure.hint);
  }

  redact(text: string): string {
    return redact(text, this.secrets);
  }
}
