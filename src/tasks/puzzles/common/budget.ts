/**
 * Output-token budgets of the sat, crypt, sudoku and rubik families. The paper (§4.3) only says budgets
 * were "sufficiently high to avoid premature truncation at lower levels"; ceilingbench gives every level
 * a reasoning allowance of 8192 tokens plus 4096 per level above L1, plus twice the family's estimate of
 * the answer itself, so a truncation (collapse) means the model ran out of room, not that the answer
 * could not fit.
 */
export function puzzleTokenBudget(level: number, answerTokens: number): number {
  const reasoning = 8192 + 4096 * Math.max(0, level - 1);
  return reasoning + 2 * Math.ceil(answerTokens);
}
