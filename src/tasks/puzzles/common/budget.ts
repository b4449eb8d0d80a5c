import type { PerLevel } from './levels.js';

/**
 * A puzzle's output-token budget at one level, from that level's row of parameters. Every puzzle states its
 * budget with one of the two helpers below; `definePuzzle` turns it into `maxOutputTokens(level)`.
 */
export type OutputBudget<Row> = (row: Row, level: number) => number;

/** A budget table written out per level (hanoi, checkers, river, coloring, jug). */
export const budgetPerLevel =
  (tokens: PerLevel<number>): OutputBudget<unknown> =>
  (_row, level) =>
    tokens[level - 1];

/**
 * A budget sized by the answer (sat, crypt, sudoku, rubik). The authors only say budgets were "sufficiently high
 * to avoid premature truncation at lower levels"; ceilingbench gives every level a reasoning allowance of 8192
 * tokens plus 4096 per level above L1, plus twice the family's estimate of the answer itself, so a truncation
 * (collapse) means the model ran out of room, not that the answer could not fit.
 */
export const answerSizedBudget =
  <Row>(answerTokens: (row: Row) => number): OutputBudget<Row> =>
  (row, level) =>
    8192 + 4096 * Math.max(0, level - 1) + 2 * Math.ceil(answerTokens(row));
