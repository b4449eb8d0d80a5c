/**
 * Two-jug water problem (docs/spec/puzzles.md §8). Jugs A and B with capacities (cA, cB)
 * start empty; the goal is exactly g litres in either jug after the LAST step. Pours move
 * δ = min(source, free space of the target), so no operator can overflow or underflow a jug.
 */
export const JUG_OPERATORS = ['Fill A', 'Fill B', 'Empty A', 'Empty B', 'Pour A to B', 'Pour B to A'] as const;
export type JugOperator = (typeof JUG_OPERATORS)[number];
export type JugState = [a: number, b: number];

export function applyOperator([a, b]: JugState, op: JugOperator, capA: number, capB: number): JugState {
  switch (op) {
    case 'Fill A':
      return [capA, b];
    case 'Fill B':
      return [a, capB];
    case 'Empty A':
      return [0, b];
    case 'Empty B':
      return [a, 0];
    case 'Pour A to B': {
      const delta = Math.min(a, capB - b);
      return [a - delta, b + delta];
    }
    case 'Pour B to A': {
      const delta = Math.min(b, capA - a);
      return [a + delta, b - delta];
    }
  }
}

const gcd = (x: number, y: number): number => (y === 0 ? x : gcd(y, x % y));
export const isJugSolvable = (capA: number, capB: number, goal: number): boolean =>
  goal <= Math.max(capA, capB) && goal % gcd(capA, capB) === 0;

/** Breadth-first search from (0, 0); a shortest operator sequence reaching g in either jug, or null. */
export function solveJug(capA: number, capB: number, goal: number): JugOperator[] | null {
  const key = ([a, b]: JugState) => a * (capB + 1) + b;
  const parent = new Map<number, { from: JugState; op: JugOperator } | null>([[0, null]]);
  let frontier: JugState[] = [[0, 0]];
  while (frontier.length > 0) {
    const next: JugState[] = [];
    for (const state of frontier) {
      if (state[0] === goal || state[1] === goal) {
        const ops: JugOperator[] = [];
        for (let at = parent.get(key(state)); at; at = parent.get(key(at.from))) ops.push(at.op);
        return ops.reverse();
      }
      for (const op of JUG_OPERATORS) {
        const target = applyOperator(state, op, capA, capB);
        if (parent.has(key(target))) continue;
        parent.set(key(target), { from: state, op });
        next.push(target);
      }
    }
    frontier = next;
  }
  return null;
}

export function jugTrace(ops: readonly JugOperator[], capA: number, capB: number): JugState[] {
  let state: JugState = [0, 0];
  return ops.map((op) => {
    state = applyOperator(state, op, capA, capB);
    return state;
  });
}
