/** Exit codes of the `ceilingbench` command. */
export const EXIT = { ok: 0, gateFailed: 1, usage: 2 } as const;

/**
 * A usage or configuration error anywhere in ceilingbench (a bad subject string, a bad flag, an
 * unreadable file): the message names the bad input and the fix; the CLI exits 2.
 */
export class UsageError extends Error {
  readonly exitCode = EXIT.usage;
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
