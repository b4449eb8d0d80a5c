import { compose, type Face, faceAxis, type Permutation, power, quarterTurn } from './cube.js';

/**
 * WCA notation with documented leniencies (docs/spec/puzzles.md §10.2). Accepted tokens:
 * - face turns U R F D L B with suffix "", "'", "2" (also "2'" and "'2", both a half turn);
 * - wide turns Uw … Bw and the lower-case forms u r f d l b (SiGN: lower case means wide, not a face turn);
 * - slices M E S and whole-cube rotations x y z, with the same suffixes.
 * Prime variants ’ ‘ ′ ´ ` are read as "'". Suffixes 1 and 3 (and anything else, e.g. "X", "R3") are
 * illegal tokens (docs/spec/puzzles.md §10.2). Wide, slice and rotation moves can move centres, so
 * the goal test compares each facelet with its face's current centre.
 */
export interface Move {
  /** The normalised token, e.g. "R'", "Rw2", "x". */
  token: string;
  perm: Permutation;
}

const PRIMES = /[’‘′´`]/g;
const TOKEN = /^([URFDLB]w?|[urfdlbMESxyz])(2'|'2|2|')?$/;

const FACE_OF: Record<string, Face> = { U: 'U', R: 'R', F: 'F', D: 'D', L: 'L', B: 'B' };
const SLICE: Record<string, { face: Face }> = { M: { face: 'L' }, E: { face: 'D' }, S: { face: 'F' } };
const ROTATION: Record<string, Face> = { x: 'R', y: 'U', z: 'F' };

function baseTurn(base: string): Permutation {
  const upper = base[0].toUpperCase();
  if (base in SLICE) return quarterTurn(faceAxis(SLICE[base].face), [0]);
  if (base in ROTATION) return quarterTurn(faceAxis(ROTATION[base]), [-1, 0, 1]);
  const face = FACE_OF[upper];
  const wide = base.length === 2 || base !== upper;
  return quarterTurn(faceAxis(face), wide ? [1, 0] : [1]);
}

const cache = new Map<string, Move>();

/** The move a token denotes, or null when the token is not legal notation. */
export function parseMoveToken(raw: string): Move | null {
  const normalised = raw.replace(PRIMES, "'");
  const cached = cache.get(normalised);
  if (cached !== undefined) return cached;
  const match = TOKEN.exec(normalised);
  if (match === null) return null;
  const base = match[1];
  const suffix = match[2] ?? '';
  const turns = suffix === "'" ? 3 : suffix === '' ? 1 : 2;
  const token = `${base}${turns === 3 ? "'" : turns === 2 ? '2' : ''}`;
  const move = { token, perm: power(baseTurn(base), turns) };
  cache.set(normalised, move);
  return move;
}

/** The composed permutation of a token sequence (every token must be legal). */
export function sequencePermutation(tokens: readonly string[]): Permutation {
  let perm: Permutation = Array.from({ length: 54 }, (_, i) => i);
  for (const token of tokens) {
    const move = parseMoveToken(token);
    if (move === null) throw new Error(`rubik: illegal move token '${token}'`);
    perm = compose(perm, move.perm);
  }
  return perm;
}

/** Invert a face-turn sequence: reverse it and invert every turn (X ↔ X', X2 stays). */
export const invertSequence = (tokens: readonly string[]): string[] =>
  [...tokens].reverse().map((t) => (t.endsWith("'") ? t.slice(0, -1) : t.endsWith('2') ? t : `${t}'`));
