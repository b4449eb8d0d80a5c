import type { PuzzleOutcome } from '../../outcome.js';
import { failOutcome, passOutcome, shortJson } from '../common/index.js';
import type { Edge } from './graph.js';

const LIST_LIMIT = 20;
const listed = (items: readonly string[]): string =>
  items.length <= LIST_LIMIT
    ? items.join(', ')
    : `${items.slice(0, LIST_LIMIT).join(', ')} and ${items.length - LIST_LIMIT} more`;

/**
 * The validator of docs/spec/puzzles.md §7, collecting every issue: missing vertices, unknown vertices (keys other than "1"…"n"), colours
 * outside the palette 1…k (ceilingbench's addition; integers only), more than k distinct colours (k_max = k),
 * then every edge in instance order for a shared colour. kStar = 1-based index, in the instance's edge list, of
 * the first edge that is violated or has an endpoint without a valid colour; −1 when only vertex-level issues
 * (e.g. an isolated vertex left uncoloured, or extra keys) fail the answer.
 */
export function validateColouring(
  n: number,
  k: number,
  edges: readonly Edge[],
  answer: Readonly<Record<string, unknown>>,
): PuzzleOutcome {
  const issues: string[] = [];
  const colour = new Array<number>(n + 1).fill(0);
  const missing: string[] = [];
  const offPalette: string[] = [];
  const used = new Set<unknown>();
  for (let v = 1; v <= n; v++) {
    const key = String(v);
    if (!Object.hasOwn(answer, key)) {
      missing.push(key);
      continue;
    }
    const value = answer[key];
    used.add(typeof value === 'object' ? shortJson(value) : value);
    if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= k) colour[v] = value;
    else offPalette.push(`${key} → ${shortJson(value, 20)}`);
  }
  const unknown = Object.keys(answer).filter((key) => !isVertexKey(key, n));
  if (missing.length > 0) issues.push(`missing vertices: ${listed(missing)}`);
  if (unknown.length > 0) issues.push(`unknown vertices: ${listed(unknown.map((key) => shortJson(key, 20)))}`);
  if (offPalette.length > 0) issues.push(`colours outside the palette 1–${k}: ${listed(offPalette)}`);
  if (used.size > k) issues.push(`too many colours: ${used.size} distinct colours used, at most ${k} allowed`);
  let firstBadEdge = -1;
  const conflicts: string[] = [];
  edges.forEach(([u, v], index) => {
    const uncoloured = colour[u] === 0 || colour[v] === 0;
    if (!uncoloured && colour[u] === colour[v]) conflicts.push(`(${u}, ${v}) both ${colour[u]}`);
    if ((uncoloured || colour[u] === colour[v]) && firstBadEdge < 0) firstBadEdge = index + 1;
  });
  if (conflicts.length > 0) issues.push(`conflicts on ${conflicts.length} edges: ${listed(conflicts)}`);
  return issues.length === 0 ? passOutcome() : failOutcome(issues, firstBadEdge);
}

/** "1"…"n" exactly (no leading zeros, signs or spaces). */
function isVertexKey(key: string, n: number): boolean {
  if (!/^[1-9][0-9]{0,5}$/.test(key)) return false;
  return Number(key) <= n;
}
