/**
 * Whether `ceilingbench run` was interrupted (Ctrl-C, SIGTERM): set by the CLI's signal handler, read by the
 * reporter, which then marks the report set `interrupted` (reporters/projections/report-set.ts). Kept on globalThis, so that
 * a second copy of this module (Vitest's module runner) reads the same flag.
 */
const KEY = Symbol.for('ceilingbench.run.interrupted');
type Flagged = typeof globalThis & { [KEY]?: boolean };

export const setRunInterrupted = (): void => {
  (globalThis as Flagged)[KEY] = true;
};

export const runInterrupted = (): boolean => (globalThis as Flagged)[KEY] === true;

/**
 * Whether a test's abort signal was aborted by a cancelled run (Ctrl-C, SIGTERM under `ceilingbench run`: Vitest's
 * `TestRunAbortError`), not by the test's own timeout. A cell cut by it records its trials as interrupted.
 */
export const isRunCancel = (reason: unknown): boolean => reason instanceof Error && reason.name === 'TestRunAbortError';
