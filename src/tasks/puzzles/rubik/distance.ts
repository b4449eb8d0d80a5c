import { FACES, type Face, type Permutation, SOLVED } from './cube';
import { parseMoveToken } from './notation';

/** The 18 face turns of the half-turn metric (HTM), each with its face. */
export const FACE_TURNS: { token: string; face: Face; perm: Permutation }[] = FACES.flatMap((face) =>
  ['', "'", '2'].map((suffix) => {
    const token = `${face}${suffix}`;
    const move = parseMoveToken(token);
    if (move === null) throw new Error(`rubik: face turn ${token} did not parse`);
    return { token, face, perm: move.perm };
  }),
);

/** Canonical-scramble rule (puzzles.md §10.3): never the same face twice in a row; opposite faces in the order U→D, R→L, F→B. */
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

let table: Map<string, number> | null = null;

/**
 * Exact HTM distance to solved of every state within 4 turns (≈ 47 000 states), built once by BFS
 * (only same-face successions are pruned, which never hides a shorter path).
 */
function solvedNeighbourhood(): Map<string, number> {
  if (table !== null) return table;
  const solved = toCodes(SOLVED);
  const built = new Map<string, number>([[keyOf(solved), 0]]);
  let frontier: Node[] = [{ state: solved, face: -1 }];
  for (let depth = 1; depth <= TABLE_DEPTH; depth++) {
    const next: Node[] = [];
    for (const node of frontier)
      expand(node, (reached, face) => {
        const key = keyOf(reached);
        if (built.has(key)) return;
        built.set(key, depth);
        next.push({ state: reached, face });
      });
    frontier = next;
  }
  table = built;
  return built;
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
 * middle: an optimal path of length d ≤ 8 passes a state t with d(state, t) = max(0, d − 4) and
 * d(t, solved) ≤ 4, so searching `limit − 4` turns from the state into the depth-4 table is exact.
 */
export function exactDistanceUpTo(state: string, limit: number): number | null {
  if (!Number.isInteger(limit) || limit < 0 || limit > 2 * TABLE_DEPTH) {
    throw new RangeError(`rubik: distance limit ${limit} must be an integer 0–${2 * TABLE_DEPTH}`);
  }
  const known = solvedNeighbourhood();
  const reach = Math.max(0, limit - TABLE_DEPTH);
  let best: number | null = null;
  const start = toCodes(state);
  const seen = new Set<string>([keyOf(start)]);
  let frontier: Node[] = [{ state: start, face: -1 }];
  for (let depth = 0; depth <= reach; depth++) {
    for (const node of frontier) {
      const rest = known.get(keyOf(node.state));
      if (rest !== undefined && depth + rest <= limit && (best === null || depth + rest < best)) best = depth + rest;
    }
    if (depth === reach) break;
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
