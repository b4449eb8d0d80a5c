import type { PyRandom } from '../../../rng/index.js';
import { drawChain, type OpChain, replayChain } from '../op-chain.js';
import type { CcbInstance, CcbProfile } from '../types.js';
import {
  applyD2,
  D2_OPS,
  type D2Op,
  formatRegisters,
  type Registers,
  START_REGISTERS,
  setTarget,
} from './registers.js';

export interface D2Data {
  ops: D2Op[];
}
export type D2Instance = CcbInstance<D2Data>;

const D2_CHAIN: OpChain<D2Op, Registers> = { start: START_REGISTERS, apply: applyD2 };

/**
 * `paper` profile (docs/spec/ccb.md §7): the operations offered at a step, in canonical order, omitting a SET whose
 * result is already held by a register other than the one being set. SHIFT and SWAP permute values, so the
 * seven values stay distinct at every step.
 */
export function offeredPaperOps(r: Registers): D2Op[] {
  return D2_OPS.filter((op) => {
    const target = setTarget(op, r);
    return target === null || r.every((v, i) => i === target.index || v !== target.value);
  });
}

/** `official`: one `choice(OPS)` per step (release); `paper`: `choice(offeredPaperOps(state))`. */
export function generateD2(rng: PyRandom, depth: number, seed: number, profile: CcbProfile): D2Instance {
  const offered = profile === 'paper' ? offeredPaperOps : () => D2_OPS;
  const { ops, states, end } = drawChain(D2_CHAIN, rng, depth, offered);
  return {
    task: 'd2',
    level: depth,
    seed,
    profile,
    data: { ops },
    trace: states.map(formatRegisters),
    answer: formatRegisters(end),
  };
}

export function replayD2(ops: readonly D2Op[]): Registers[] {
  return replayChain(D2_CHAIN, ops);
}
