import { FACES, type Face, type Permutation, SOLVED } from './cube.js';
import { parseMoveToken } from './notation.js';

/** The 18 face turns of the half-turn metric (HTM), each with its face. */
export const FACE_TURNS: { token: string; face: Face; perm: Permutation }[] = FACES.flatMap((face) =>
  ['', "'", '2'].map((suffix) => {
    const token = `${face}${suffix}`;
    const move = parseMoveToken(token);
    if (move === null) throw new Error(`rubik: face turn ${token} did not parse`);
    return { token, face, perm: move.perm };
  }),
);

/** Canonical-scramble rule (docs/spec/puzzles.md §10.3): never the same face twice in a row; opposite faces in the order U→D, R→L, F→B. */
const OPPOSITE_SECOND: Partial<Record<Face, Face>> = { D: 'U', L: 'R', B: 'F' };
export const canFollow = (previous: Face | null, next: Face): boolean =>
  previous === null || (next !== previous && OPPOSITE_SECOND[previous] !== next);

const TABLE_DEPTH = 4;

/** Search states as colour codes 0–5 (face index), so a turn is an index gather and a key is 11 chars. */
type Codes = Uint8Array;
const toCodes = (state: string): Codes => Uint8Array.from(state, (ch) => FACES.indexOf(ch as Face));
const TURN_PERMS = FACE_TURNS.map((turn) => Uint8Array.from(turn.perm));

function turnCodes(state: Codes, perm: Uint8Array): Codes {
  const out = new Uint8Array(54);
  for (let j = 0; j < 54; j++) out[j] = state[perm[j]];
  return out;
}

/** Pack 54 facelets × 3 bits into 11 UTF-16 code units of 15 bits each (a Map key). */
function keyOf(state: Codes): string {
  const units = new Array<number>(11);
  for (let u = 0; u < 11; u++) {
    let v = 0;
    for (let k = 0; k < 5; k++) {
      const i = u * 5 + k;
      v = (v << 3) | (i < 54 ? state[i] : 0);
    }
    units[u] = v;
  }
  return String.fromCharCode(...units);
}

type Node = { state: Codes; face: number };

/** Exact HTM distances of every state within `depth` turns of solved, grown layer by layer on demand. */
const table = new Map<string, number>();
let tableDepth = -1;
let tableFrontier: Node[] = [];

/**
 * The table to depth `depth` (≤ 4; depth 4 holds ≈ 47 000 states), built by BFS (only same-face
 * successions are pruned, which never hides a shorter path) and kept for later calls.
 */
function solvedNeighbourhood(depth: number): Map<string, number> {
  if (tableDepth < 0) {
    const solved = toCodes(SOLVED);
    table.set(keyOf(solved), 0);
    tableFrontier = [{ state: solved, face: -1 }];
    tableDepth = 0;
  }
  while (tableDepth < depth) {
    const next: Node[] = [];
    const layer = tableDepth + 1;
    for (const node of tableFrontier) {
      expand(node, (reached, face) => {
        const key = keyOf(reached);
        if (table.has(key)) return;
        table.set(key, layer);
        next.push({ state: reached, face });
      });
    }
    tableFrontier = next;
    tableDepth = layer;
  }
  return table;
}

function expand(node: Node, visit: (reached: Codes, face: number) => void): void {
  for (let t = 0; t < TURN_PERMS.length; t++) {
    const face = Math.floor(t / 3);
    if (face === node.face) continue;
    visit(turnCodes(node.state, TURN_PERMS[t]), face);
  }
}

/**
 * The exact HTM distance of `state` to solved if it is at most `limit` (≤ 8), else null. Meet in the
 * middle with a table of depth h = min(4, ⌈limit/2⌉): an optimal path of length d ≤ limit passes a state t
 * with d(state, t) = max(0, d − h) ≤ limit − h and d(t, solved) ≤ h, so searching limit − h turns from the
 * state into the table is exact. Only limit ≥ 7 needs the depth-4 table (≈ 0.2 s to build once).
 */
export function exactDistanceUpTo(state: string, limit: number): number | null {
  if (!Number.isInteger(limit) || limit < 0 || limit > 2 * TABLE_DEPTH) {
    throw new RangeError(`rubik: distance limit ${limit} must be an integer 0–${2 * TABLE_DEPTH}`);
  }
  const depth = Math.min(TABLE_DEPTH, Math.ceil(limit / 2));
  const known = solvedNeighbourhood(depth);
  const reach = limit - depth;
  let best: number | null = null;
  const start = toCodes(state);
  const seen = new Set<string>([keyOf(start)]);
  let frontier: Node[] = [{ state: start, face: -1 }];
  for (let step = 0; step <= reach; step++) {
    for (const node of frontier) {
      const rest = known.get(keyOf(node.state));
      if (rest !== undefined && rest <= depth && step + rest <= limit && (best === null || step + rest < best)) {
        best = step + rest;
      }
    }
    if (step === reach) break;
    const next: Node[] = [];
    for (const node of frontier)
      expand(node, (reached, face) => {
        const key = keyOf(reached);
        if (seen.has(key)) return;
        seen.add(key);
        next.push({ state: reached, face });
      });
    frontier = next;
  }
  return best;
}
