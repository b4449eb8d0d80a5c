/** D2 Symbolic Pointer Tracking: registers A..G, arithmetic mod 10, the release's five operations in order. */

export type Registers = number[];

export const REGISTER_NAMES = ['A', 'B', 'C', 'D', 'E', 'F', 'G'] as const;

export const D2_OPS = ['SHIFT_RIGHT', 'SHIFT_LEFT', 'SWAP_A_G', 'SET_D_TO_A_PLUS_B', 'SET_C_TO_G_MINUS_E'] as const;
export type D2Op = (typeof D2_OPS)[number];

export const START_REGISTERS: Registers = [1, 2, 3, 4, 5, 6, 7];

const A = 0;
const B = 1;
const C = 2;
const D = 3;
const E = 4;
const G = 6;

/** The value a SET operation writes and the register it writes, computed from the pre-op state. */
export function setTarget(op: D2Op, r: Registers): { index: number; value: number } | null {
  if (op === 'SET_D_TO_A_PLUS_B') return { index: D, value: (r[A] + r[B]) % 10 };
  if (op === 'SET_C_TO_G_MINUS_E') return { index: C, value: (r[G] - r[E] + 10) % 10 };
  return null;
}

export function applyD2(op: D2Op, r: Registers): Registers {
  switch (op) {
    case 'SHIFT_RIGHT':
      return [r[6], r[0], r[1], r[2], r[3], r[4], r[5]];
    case 'SHIFT_LEFT':
      return [r[1], r[2], r[3], r[4], r[5], r[6], r[0]];
    case 'SWAP_A_G':
      return [r[G], r[1], r[2], r[3], r[4], r[5], r[A]];
    default: {
      const target = setTarget(op, r);
      const out = [...r];
      if (target) out[target.index] = target.value;
      return out;
    }
  }
}

/** `[A=1, B=2, C=3, D=4, E=5, F=6, G=7]`. */
export const formatRegisters = (r: Registers): string => `[${r.map((v, i) => `${REGISTER_NAMES[i]}=${v}`).join(', ')}]`;

export const hasDistinctValues = (r: Registers): boolean => new Set(r).size === r.length;
