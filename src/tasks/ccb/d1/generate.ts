import type { PyRandom } from '../../../rng/index.js';
import { drawChain, type OpChain, replayChain } from '../op-chain.js';
import type { CcbInstance, CcbProfile } from '../types.js';
import { applyD1, D1_OPS, type D1Op, formatGrid, type Grid, START_GRID } from './grid.js';

export interface D1Data {
  ops: D1Op[];
}
export type D1Instance = CcbInstance<D1Data>;

const D1_CHAIN: OpChain<D1Op, Grid> = { start: START_GRID, apply: applyD1 };

/** The released generator: one `choice(OPS)` per step; both profiles share it (docs/spec/ccb.md §7). */
export function generateD1(rng: PyRandom, depth: number, seed: number, profile: CcbProfile): D1Instance {
  const { ops, states, end } = drawChain(D1_CHAIN, rng, depth, () => D1_OPS);
  return {
    task: 'd1',
    level: depth,
    seed,
    profile,
    data: { ops },
    trace: states.map(formatGrid),
    answer: formatGrid(end),
  };
}

/** Replays an instance's operations from the start grid (used by the simulator and tests). */
export function replayD1(ops: readonly D1Op[]): Grid[] {
  return replayChain(D1_CHAIN, ops);
}
