/**
 * Checker jumping (docs/spec/puzzles.md §3). A board of 2n+1 cells written as a string
 * over R (red), B (blue), _ (empty): `R…R_B…B` → goal `B…B_R…R`. A move is `[colour, from, to]` with
 * 0-indexed cells. Red moves right, blue moves left; a move slides into the adjacent empty cell or jumps over
 * one occupied cell (the jumped cell must be non-empty, of either colour) into the empty cell.
 */
export type Colour = 'R' | 'B';
export type CheckerMove = [colour: Colour, from: number, to: number];

export const initialBoard = (n: number): string => `${'R'.repeat(n)}_${'B'.repeat(n)}`;
export const goalBoard = (n: number): string => `${'B'.repeat(n)}_${'R'.repeat(n)}`;

export const direction = (colour: Colour): number => (colour === 'R' ? 1 : -1);

export function applyMove(board: string, [, from, to]: CheckerMove): string {
  const cells = board.split('');
  cells[to] = cells[from];
  cells[from] = '_';
  return cells.join('');
}

/** Legal forward moves from `board`, ordered by source cell; `oppositeJumpOnly`: jumps only over the other colour (a stricter variant). */
export function legalMoves(board: string, oppositeJumpOnly = false): CheckerMove[] {
  const moves: CheckerMove[] = [];
  for (let from = 0; from < board.length; from++) {
    const colour = board[from];
    if (colour !== 'R' && colour !== 'B') continue;
    const dir = direction(colour);
    if (board[from + dir] === '_') moves.push([colour, from, from + dir]);
    const over = board[from + dir];
    const jumpable = over !== undefined && over !== '_' && (!oppositeJumpOnly || over !== colour);
    if (jumpable && board[from + 2 * dir] === '_') moves.push([colour, from, from + 2 * dir]);
  }
  return moves;
}

/**
 * Number of move sequences from the initial board to the goal, and the shortest/longest such length. Forward
 * moves strictly increase total displacement, so the state graph is a DAG and memoised counting is exact.
 */
export function countSolutions(
  n: number,
  oppositeJumpOnly = false,
): { count: number; minLength: number; maxLength: number } {
  const goal = goalBoard(n);
  const memo = new Map<string, { count: number; minLength: number; maxLength: number }>();
  const visit = (board: string): { count: number; minLength: number; maxLength: number } => {
    if (board === goal) return { count: 1, minLength: 0, maxLength: 0 };
    const cached = memo.get(board);
    if (cached) return cached;
    let result = { count: 0, minLength: Number.POSITIVE_INFINITY, maxLength: Number.NEGATIVE_INFINITY };
    for (const move of legalMoves(board, oppositeJumpOnly)) {
      const sub = visit(applyMove(board, move));
      if (sub.count === 0) continue;
      result = {
        count: result.count + sub.count,
        minLength: Math.min(result.minLength, sub.minLength + 1),
        maxLength: Math.max(result.maxLength, sub.maxLength + 1),
      };
    }
    memo.set(board, result);
    return result;
  };
  return visit(initialBoard(n));
}

/** The first solution in source-cell move order (depth-first search with dead-end memo). */
export function solveCheckers(n: number): CheckerMove[] {
  const goal = goalBoard(n);
  const dead = new Set<string>();
  const path: CheckerMove[] = [];
  const search = (board: string): boolean => {
    if (board === goal) return true;
    if (dead.has(board)) return false;
    for (const move of legalMoves(board)) {
      path.push(move);
      if (search(applyMove(board, move))) return true;
      path.pop();
    }
    dead.add(board);
    return false;
  };
  if (!search(initialBoard(n))) throw new Error(`checkers: no solution for n=${n} (impossible by theory)`);
  return path;
}

/** The board after each move of a sequence (no legality check). */
export const checkersTrace = (n: number, moves: readonly CheckerMove[]): string[] => {
  let board = initialBoard(n);
  return moves.map((move) => {
    board = applyMove(board, move);
    return board;
  });
};
