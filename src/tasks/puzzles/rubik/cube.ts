/**
 * A 3×3 facelet model in Kociemba's convention (docs/spec/puzzles.md §10.1): 54 facelets, faces in the order
 * U R F D L B, index = 9·face + 3·row + col in the standard unfolding. Every turn — face, wide, slice or
 * whole-cube rotation — is derived from geometry: a facelet is a (cubie position, outward normal) pair in
 * {−1,0,1}³, and a clockwise quarter turn about outward axis a maps v ↦ a(a·v) − a×v (rotation by −90°).
 * Deriving all turns from one rule avoids hand-typed permutation tables; §10.4's vectors check it.
 */
export const FACES = ['U', 'R', 'F', 'D', 'L', 'B'] as const;
export type Face = (typeof FACES)[number];
export const SOLVED = FACES.map((face) => face.repeat(9)).join('');

type Vec = [number, number, number];

const NORMALS: Record<Face, Vec> = {
  U: [0, 1, 0],
  R: [1, 0, 0],
  F: [0, 0, 1],
  D: [0, -1, 0],
  L: [-1, 0, 0],
  B: [0, 0, -1],
};

/** Cubie position of facelet (row, col) of a face, as that face appears in the unfolding. */
function position(face: Face, row: number, col: number): Vec {
  switch (face) {
    case 'U':
      return [col - 1, 1, row - 1];
    case 'R':
      return [1, 1 - row, 1 - col];
    case 'F':
      return [col - 1, 1 - row, 1];
    case 'D':
      return [col - 1, -1, 1 - row];
    case 'L':
      return [-1, 1 - row, col - 1];
    case 'B':
      return [1 - col, 1 - row, -1];
  }
}

const key = (p: Vec, n: Vec): string => `${p.join(',')}|${n.join(',')}`;

const FACELETS: { p: Vec; n: Vec }[] = [];
const INDEX = new Map<string, number>();
for (const face of FACES) {
  for (let row = 0; row < 3; row++) {
    for (let col = 0; col < 3; col++) {
      const p = position(face, row, col);
      INDEX.set(key(p, NORMALS[face]), FACELETS.length);
      FACELETS.push({ p, n: NORMALS[face] });
    }
  }
}

const dot = (a: Vec, b: Vec): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: Vec, b: Vec): Vec => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
const clockwise = (axis: Vec, v: Vec): Vec => {
  const along = dot(axis, v);
  const c = cross(axis, v);
  return [axis[0] * along - c[0], axis[1] * along - c[1], axis[2] * along - c[2]];
};

/** A permutation `perm` with new[j] = old[perm[j]]. */
export type Permutation = readonly number[];

/** One clockwise quarter turn of the layers whose coordinate along `axis` is in `layers`. */
export function quarterTurn(axis: Vec, layers: readonly number[]): Permutation {
  const perm = FACELETS.map((_, i) => i);
  FACELETS.forEach(({ p, n }, i) => {
    if (!layers.includes(dot(axis, p))) return;
    const target = INDEX.get(key(clockwise(axis, p), clockwise(axis, n)));
    if (target === undefined) throw new Error('rubik: a turn left the cube (geometry bug)');
    perm[target] = i;
  });
  return perm;
}

export const compose = (first: Permutation, second: Permutation): Permutation => second.map((i) => first[i]);

export function power(perm: Permutation, times: number): Permutation {
  let result: Permutation = perm.map((_, i) => i);
  for (let t = 0; t < times; t++) result = compose(result, perm);
  return result;
}

export const applyPermutation = (state: string, perm: Permutation): string => {
  let out = '';
  for (let j = 0; j < perm.length; j++) out += state[perm[j]];
  return out;
};

export const faceAxis = (face: Face): Vec => NORMALS[face];

/**
 * Solved up to a whole-cube orientation: every facelet shows its face's current centre colour. With
 * face turns only the centres never move, so this equals `state === SOLVED`.
 */
export function isSolved(state: string): boolean {
  for (let face = 0; face < 6; face++) {
    const centre = state[9 * face + 4];
    for (let i = 0; i < 9; i++) if (state[9 * face + i] !== centre) return false;
  }
  return true;
}

/** Facelet-string sanity (docs/spec/puzzles.md §10.2, steps 0–2): 54 characters over U R F D L B, 9 of each. */
export function faceletIssues(state: string): string[] {
  if (state.length !== 54) return [`the facelet string has ${state.length} characters, not 54`];
  const issues: string[] = [];
  for (const face of FACES) {
    const count = [...state].filter((ch) => ch === face).length;
    if (count !== 9) issues.push(`colour ${face} appears ${count} times, not 9`);
  }
  if (/[^URFDLB]/.test(state)) issues.push('the facelet string has characters outside U R F D L B');
  return issues;
}
