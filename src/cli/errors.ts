/** Exit codes of the `ceilingbench` command. */
export const EXIT = { ok: 0, gateFailed: 1, usage: 2 } as const;

/** A usage or configuration error: the message names the bad argument and the fix; exit 2. */
export class UsageError extends Error {
  readonly exitCode = EXIT.usage;
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
