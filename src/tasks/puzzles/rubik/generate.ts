import type { PyRandom } from '../../../rng/index.js';
import { applyPermutation, type Face, SOLVED } from './cube.js';
import { canFollow, exactDistanceUpTo, FACE_TURNS } from './distance.js';
import { sequencePermutation } from './notation.js';

/** docs/spec/puzzles.md §1.2: canonical scramble length per level (= the exact optimal HTM distance). */
export const RUBIK_SCRAMBLE_LENGTHS = [1, 2, 3, 4, 6, 8] as const;

export function rubikScrambleLength(level: number): number {
  const length = RUBIK_SCRAMBLE_LENGTHS[level - 1];
  if (!Number.isInteger(level) || length === undefined) {
    throw new RangeError(`rubik: level ${level} is not defined; use an integer level 1–6`);
  }
  return length;
}

export interface RubikData {
  /** The canonical scramble applied to the solved cube, WCA face turns. */
  scramble: string[];
  /** The scrambled cube as a 54-facelet Kociemba string (U R F D L B). */
  state: string;
  /** Exact HTM optimal distance, verified by meet-in-the-middle; equals the scramble length. */
  optimalDistance: number;
  /** Scrambles drawn until one had optimal distance equal to its length (1 = the first one did). */
  attempts: number;
}

/** Draw a canonical scramble (docs/spec/puzzles.md §10.3) of `length` face turns, uniformly over allowed successors. */
export function canonicalScramble(rng: PyRandom, length: number): string[] {
  const tokens: string[] = [];
  let previous: Face | null = null;
  for (let i = 0; i < length; i++) {
    const allowed = FACE_TURNS.filter((turn) => canFollow(previous, turn.face));
    const turn = rng.choice(allowed);
    tokens.push(turn.token);
    previous = turn.face;
  }
  return tokens;
}

const MAX_ATTEMPTS = 1000;

/** Redraw until the scramble's exact optimal distance equals its length (never needed in our samples ≤ 6). */
export function generateRubik(rng: PyRandom, length: number): RubikData {
  for (let attempts = 1; attempts <= MAX_ATTEMPTS; attempts++) {
    const scramble = canonicalScramble(rng, length);
    const state = applyPermutation(SOLVED, sequencePermutation(scramble));
    if (length === 0 || exactDistanceUpTo(state, length - 1) === null) {
      return { scramble, state, optimalDistance: length, attempts };
    }
  }
  throw new Error(`rubik: no scramble of length ${length} at optimal distance ${length} in ${MAX_ATTEMPTS} draws`);
}
