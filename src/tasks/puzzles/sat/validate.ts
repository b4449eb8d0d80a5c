import type { PuzzleOutcome } from '../../outcome.js';
import type { ParseResult } from '../../task.js';
import { failOutcome, passOutcome } from '../common/index.js';

/**
 * A parsed SAT answer: variable index → value. Keys are "1", "2", … (the template's spelling); "x1" is
 * tolerated. An empty object parses (and fails validation). A value that is not a JSON boolean is kept as
 * 'invalid' so the validator can name it. Keys that name no variable are ignored (docs/spec/puzzles.md §5).
 */
export interface SatAnswer {
  values: Map<number, boolean | 'invalid'>;
}

const VARIABLE_KEY = /^[xX]?(\d{1,6})$/;

/** The `assignment = {...}` object read into variable values; never fails once the object parsed. */
export function readAssignment(object: Record<string, unknown>): ParseResult<SatAnswer> {
  const values = new Map<number, boolean | 'invalid'>();
  for (const [key, value] of Object.entries(object)) {
    const match = VARIABLE_KEY.exec(key.trim());
    if (match === null) continue;
    values.set(Number(match[1]), typeof value === 'boolean' ? value : 'invalid');
  }
  return { ok: true, value: { values } };
}

export const formatClause = (clause: readonly number[]): string =>
  `(${clause.map((lit) => (lit > 0 ? `x${lit}` : `¬x${-lit}`)).join(' ∨ ')})`;

/**
 * The validator of docs/spec/puzzles.md §5, clauses in order and literals in order within a clause: an
 * unassigned (or non-boolean) variable met before a true literal fails the clause; a clause with no true
 * literal fails. Every failing clause is listed, not only the first; kStar is the first (1-based).
 */
export function validateSat(clauses: readonly (readonly number[])[], answer: SatAnswer): PuzzleOutcome {
  const issues: string[] = [];
  let first = -1;
  clauses.forEach((clause, index) => {
    const reason = clauseFailure(clause, answer);
    if (reason === null) return;
    if (first < 0) first = index + 1;
    issues.push(`clause ${index + 1} ${formatClause(clause)}: ${reason}`);
  });
  return issues.length === 0 ? passOutcome() : failOutcome(issues, first);
}

function clauseFailure(clause: readonly number[], answer: SatAnswer): string | null {
  for (const lit of clause) {
    const variable = Math.abs(lit);
    const value = answer.values.get(variable);
    if (value === undefined) return `variable ${variable} is not assigned`;
    if (value === 'invalid') return `variable ${variable} has a non-boolean value`;
    if (value === lit > 0) return null;
  }
  return 'unsatisfied (every literal is false)';
}
