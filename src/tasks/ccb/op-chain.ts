import type { PyRandom } from '../../rng/index.js';

/**
 * A CCB domain whose state is a chain of operations applied from a fixed start (D1's grid, D2's registers): the
 * generator draws the chain and the simulator and tests replay it, both through the same walk.
 */
export interface OpChain<Op, S> {
  start: S;
  apply(op: Op, state: S): S;
}

/** Draws `depth` operations, one `rng.choice(offered(state))` per step, with the state after each. */
export function drawChain<Op, S>(
  chain: OpChain<Op, S>,
  rng: PyRandom,
  depth: number,
  offered: (state: S) => ArrayLike<Op>,
): { ops: Op[]; states: S[]; end: S } {
  const ops: Op[] = [];
  const states: S[] = [];
  let state = chain.start;
  for (let i = 0; i < depth; i++) {
    const op = rng.choice(offered(state));
    state = chain.apply(op, state);
    ops.push(op);
    states.push(state);
  }
  return { ops, states, end: state };
}

/** The state after each of `ops`, from the start. */
export function replayChain<Op, S>(chain: OpChain<Op, S>, ops: readonly Op[]): S[] {
  const states: S[] = [];
  let state = chain.start;
  for (const op of ops) {
    state = chain.apply(op, state);
    states.push(state);
  }
  return states;
}
