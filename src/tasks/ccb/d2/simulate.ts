import type { PyRandom } from '../../../rng/index.js';
import type { SimDomain } from '../simulate.js';
import type { D2Instance } from './generate.js';
import { applyD2, type D2Op, formatRegisters, type Registers, START_REGISTERS, setTarget } from './registers.js';

/** Copies one register's value into another on top of the exact step: the paper's "illegal re-assignment". */
function illegalReassignment(exact: Registers, rng: PyRandom): Registers {
  const [to, from] = rng.sample([0, 1, 2, 3, 4, 5, 6], 2);
  const out = [...exact];
  out[to] = exact[from];
  return out;
}

/** Op-specific slips: wrong shift direction, a forgotten swap, an off-by-one in modular arithmetic. */
function slip(op: D2Op, r: Registers, rng: PyRandom): Registers {
  switch (op) {
    case 'SHIFT_RIGHT':
      return applyD2('SHIFT_LEFT', r);
    case 'SHIFT_LEFT':
      return applyD2('SHIFT_RIGHT', r);
    case 'SWAP_A_G':
      return [...r];
    default: {
      const target = setTarget(op, r);
      const out = [...r];
      if (target) out[target.index] = (target.value + (rng.random() < 0.5 ? 1 : 9)) % 10;
      return out;
    }
  }
}

function nudge(r: Registers, rng: PyRandom): Registers {
  const out = [...r];
  const i = rng.randbelow(7);
  out[i] = (out[i] + 1) % 10;
  return out;
}

export function d2SimDomain(instance: D2Instance): SimDomain<Registers> {
  const ops = instance.data.ops;
  return {
    start: START_REGISTERS,
    step: (r, i) => applyD2(ops[i], r),
    mistake: (r, i, rng) => (rng.random() < 0.25 ? illegalReassignment(applyD2(ops[i], r), rng) : slip(ops[i], r, rng)),
    nudge,
    same: (a, b) => a.every((v, i) => v === b[i]),
    formatState: formatRegisters,
    answerOf: formatRegisters,
    wrongAnswer: (r, _truth, rng) => formatRegisters(nudge(r, rng)),
  };
}
