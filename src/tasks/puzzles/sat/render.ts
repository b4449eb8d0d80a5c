import { finalLineFormat } from '../common/index.js';
import type { SatInstance } from './generate.js';

/** One template for every level (complexity-invariant); only n, m and the clause list change. */
export function renderSat({ data }: SatInstance): string {
  return [
    `Find an assignment of true/false values to the Boolean variables x1 … x${data.n} that satisfies the CNF ` +
      'formula below.',
    '',
    'Rules:',
    '- The formula is a conjunction (AND) of clauses; every clause must be true.',
    '- A clause is a disjunction (OR) of literals; it is true when at least one of its literals is true.',
    '- Clauses are given as a JSON array of integer arrays (DIMACS style): the literal k means x_k, the ' +
      'literal -k means NOT x_k.',
    '- Every variable must be assigned; the formula is satisfiable.',
    '',
    `Variables: ${data.n}`,
    `Clauses (${data.m}):`,
    JSON.stringify(data.clauses),
    '',
    ...finalLineFormat(
      'assignment',
      '{"1": true, "2": false, "3": true}',
      'a strict JSON object mapping every variable number (as a string key) to true or false',
    ),
  ].join('\n');
}

/** The assignment on one line, `{"1": true, "2": false, …}`. */
export const writeAssignment = (assignment: Readonly<Record<string, boolean>>): string =>
  `{${Object.entries(assignment)
    .map(([variable, value]) => `"${variable}": ${value}`)
    .join(', ')}}`;
