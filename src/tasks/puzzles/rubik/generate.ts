import type { PyRandom } from '../../../rng/index.js';
import type { TaskInstance } from '../../task.js';
import type { PerLevel, PuzzleContent } from '../common/index.js';
import { applyPermutation, type Face, SOLVED } from './cube.js';
import { canFollow, exactDistanceUpTo, FACE_TURNS } from './distance.js';
import { invertSequence, sequencePermutation } from './notation.js';

/** Canonical scramble length per level (= the exact optimal HTM distance; docs/spec/puzzles.md §1.2). */
export const RUBIK_SCRAMBLE_LENGTHS: PerLevel<number> = [1, 2, 3, 4, 6, 8];

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

/** `answer`: the inverse scramble, an optimal solution. */
export type RubikInstance = TaskInstance<RubikData, never, string[]>;

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
export function generateRubik(length: number, rng: PyRandom): PuzzleContent<RubikData, never, string[]> {
  for (let attempts = 1; attempts <= MAX_ATTEMPTS; attempts++) {
    const scramble = canonicalScramble(rng, length);
    const state = applyPermutation(SOLVED, sequencePermutation(scramble));
    if (length === 0 || exactDistanceUpTo(state, length - 1) === null) {
      return { data: { scramble, state, optimalDistance: length, attempts }, answer: invertSequence(scramble) };
    }
  }
  throw new Error(`rubik: no scramble of length ${length} at optimal distance ${length} in ${MAX_ATTEMPTS} draws`);
}
