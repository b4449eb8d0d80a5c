// The one error module. It imports nothing, so every layer, the pure ones included, may import it.

/**
 * Exit codes of the CLI. `budgetStopped`: a spending limit (--max-cost/--max-tokens/--max-calls) or an interrupt
 * (Ctrl-C) stopped the run before every trial was sent; the report was written, and a rerun resumes from the cache.
 */
export const EXIT = { ok: 0, gateFailed: 1, usage: 2, providerFatal: 3, budgetStopped: 4, internal: 70 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/**
 * Every stable error code and the exit code the CLI returns when an error with it reaches the top.
 * A code never changes meaning once released; add a new one instead.
 */
export const ERROR_CODES = {
  /** A bad flag, argument, file or environment variable. */
  CB_USAGE: { exit: EXIT.usage },
  /** A bad ceilingbench configuration (file, `CEILINGBENCH_*` or plugin options). */
  CB_CONFIG: { exit: EXIT.usage },
  /** A subject string outside the subject grammar. */
  CB_SUBJECT_SPEC: { exit: EXIT.usage },
  /** A task id no registered plugin has. */
  CB_UNKNOWN_TASK: { exit: EXIT.usage },
  /** A task plugin that cannot be registered: a missing or malformed declaration, or an id already taken. */
  CB_TASK_PLUGIN: { exit: EXIT.usage },
  /** Per-depth counts that cannot be read. */
  CB_COUNT_INPUT: { exit: EXIT.usage },
  /** A subject failure that must stop an SCC assay (e.g. a replay log that does not match the ladder). */
  CB_SCC_FATAL: { exit: EXIT.usage },
  /**
   * The provider refused in a way every further request would repeat (no quota left, credentials refused):
   * the run was stopped; its trials are `api` (missing data), not model failures.
   */
  CB_PROVIDER_FATAL: { exit: EXIT.providerFatal },
  /**
   * The report folder holds files of the report set's names that ceilingbench did not write (no manifest lists
   * them): nothing is removed or overwritten (reporters/projections/report-set.ts).
   */
  CB_REPORT_FOLDER: { exit: EXIT.usage },
  /**
   * `--batch` asked of a run it cannot batch: a design whose next request depends on earlier answers (the SCC
   * ladder and assays, the adaptive and sequential designs), a subject or project whose trials cannot be listed
   * before the run, a test-name filter or shard, or a response cache that cannot be written.
   */
  CB_BATCH_UNSUPPORTED: { exit: EXIT.usage },
  /** Aborted while waiting for the rate limiter; the caller that aborted handles it, so at the top it is a bug. */
  CB_LIMITER_ABORTED: { exit: EXIT.internal },
} as const satisfies Record<string, { exit: ExitCode }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The base of every ceilingbench error: a stable `code` and the exit code that code maps to. */
export class CeilingbenchError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
    this.name = 'CeilingbenchError';
  }
  get exitCode(): ExitCode {
    return ERROR_CODES[this.code].exit;
  }
}

/**
 * The stable code of a ceilingbench error, known by its `code` rather than by `instanceof`: an error thrown by a
 * second copy of this module (Vitest loads the reporter and the config through its own module runner) is not an
 * instance of this module's class, yet means the same.
 */
export function errorCodeOf(error: unknown): ErrorCode | undefined {
  if (!(error instanceof Error) || !('code' in error) || typeof error.code !== 'string') return undefined;
  return Object.hasOwn(ERROR_CODES, error.code) ? (error.code as ErrorCode) : undefined;
}

/**
 * A usage or configuration error anywhere in ceilingbench (a bad subject string, a bad flag, an
 * unreadable file): the message names the bad input and the fix; the CLI exits 2.
 */
export class UsageError extends CeilingbenchError {
  constructor(message: string, code: ErrorCode = 'CB_USAGE') {
    super(code, message);
    this.name = 'UsageError';
  }
}

/** The base of an error class with one fixed code: its instances carry the code and the class's name. */
function coded(code: ErrorCode, name: string) {
  return class extends CeilingbenchError {
    constructor(message: string) {
      super(code, message);
      this.name = name;
    }
  };
}

/** A configuration error: one line per problem, naming the field, what is wrong and the fix. */
export class ConfigError extends coded('CB_CONFIG', 'ConfigError') {}

/** Input that cannot be read as per-depth counts; the message names the line or entry and the fix. */
export class CountInputError extends coded('CB_COUNT_INPUT', 'CountInputError') {}

/** `--batch` for a run that cannot be batched (see CB_BATCH_UNSUPPORTED); the message says what can be. */
export class BatchUnsupportedError extends coded('CB_BATCH_UNSUPPORTED', 'BatchUnsupportedError') {}

/** A subject failure that must stop the assay instead of becoming an error trial (e.g. a replay mismatch). */
export class SccFatalError extends coded('CB_SCC_FATAL', 'SccFatalError') {}

/** A provider condition that ends the run (see CB_PROVIDER_FATAL); the message says what to fix. */
export class ProviderFatalError extends coded('CB_PROVIDER_FATAL', 'ProviderFatalError') {}

export class LimiterAbortError extends CeilingbenchError {
  constructor() {
    super('CB_LIMITER_ABORTED', 'aborted while waiting for the rate limiter');
    this.name = 'LimiterAbortError';
  }
}
