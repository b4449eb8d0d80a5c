import type { PyRandom } from '../../../rng/index.js';
import type { CcbInstance, CcbProfile } from '../types.js';
import { applyD1, D1_OPS, type D1Op, formatGrid, type Grid, START_GRID } from './grid.js';

export interface D1Data {
  ops: D1Op[];
}
export type D1Instance = CcbInstance<D1Data>;

/** The released generator: one `choice(OPS)` per step; both profiles share it (docs/spec/ccb.md §7). */
export function generateD1(rng: PyRandom, depth: number, seed: number, profile: CcbProfile): D1Instance {
  const ops: D1Op[] = [];
  const trace: string[] = [];
  let grid: Grid = START_GRID;
  for (let i = 0; i < depth; i++) {
    const op = rng.choice(D1_OPS);
    grid = applyD1(op, grid);
    ops.push(op);
    trace.push(formatGrid(grid));
  }
  return { task: 'd1', level: depth, seed, profile, data: { ops }, trace, answer: formatGrid(grid) };
}

/** Replays an instance's operations from the start grid (used by the simulator and tests). */
export function replayD1(ops: readonly D1Op[]): Grid[] {
  const out: Grid[] = [];
  let grid = START_GRID;
  for (const op of ops) {
    grid = applyD1(op, grid);
    out.push(grid);
  }
  return out;
}
