import type { GateResult } from '../schema/gate.js';

/** The hard gates that failed: they, and nothing else about the gates, decide the exit code. */
export const hardFailures = (gates: readonly GateResult[]): GateResult[] =>
  gates.filter((g) => g.mode === 'hard' && !g.passed);

/**
 * A test failed by its gates or by a record that says nothing (insufficient data): the message is those lines
 * themselves, so the console, JUnit and summary.md read `ceilingbench: gate d2.minRetention FAILED (hard): …`,
 * never an assertion diff such as `expected '…' to be ''`.
 */
export class VerdictError extends Error {
  constructor(lines: readonly string[]) {
    super(lines.join('\n'));
    this.name = 'ceilingbench';
    // the gate lines are the whole story: no stack frames of ceilingbench's own code under them
    this.stack = `${this.name}: ${this.message}`;
  }
}
