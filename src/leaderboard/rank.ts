import type { Comparison, Relation } from '../schema/leaderboard.js';
import { holmAdjust } from '../stats/holm.js';

/** A subject's standing fields, filled once the project's tests are adjusted. */
export interface Standing {
  subject: string;
  spec: string;
  seed: number | null;
  status: 'ok' | 'insufficient';
  insufficientReason?: string;
  rank: number | null;
  rankRange: [number, number] | null;
  rankLabel: string | null;
}

/** A record to rank: its label, whether it can be ranked, and its headline as a key compared high to low. */
export interface Rankable {
  label: string;
  ok: boolean;
  key: ReadonlyArray<number | null>;
}

/** Compares keys high to low; null sorts below every number. */
function compareKeys(x: ReadonlyArray<number | null>, y: ReadonlyArray<number | null>): number {
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const a = x[i] ?? null;
    const b = y[i] ?? null;
    if (a === b) continue;
    if (a === null) return 1;
    if (b === null) return -1;
    return b - a;
  }
  return 0;
}

/** Rankable records by headline, high first, ties by label; records that cannot be ranked last, by label. */
export function orderByHeadline<R extends Rankable>(records: readonly R[]): R[] {
  const byLabel = (a: R, b: R) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0);
  const ok = records.filter((r) => r.ok).sort((a, b) => compareKeys(a.key, b.key) || byLabel(a, b));
  return [...ok, ...records.filter((r) => !r.ok).sort(byLabel)];
}

/** Fills `pAdjusted` (Holm over the family, in place) and `separable` = adjusted p < α for tests with a p. */
export function adjustFamily(family: readonly Comparison[], alpha: number): void {
  const tested = family.filter((c) => c.p !== null);
  const adjusted = holmAdjust(tested.map((c) => c.p as number));
  tested.forEach((c, i) => {
    c.pAdjusted = adjusted[i];
    c.separable = adjusted[i] < alpha;
  });
}

/** Which of a pair the test favours: 'a', 'b', or null when it does not separate them (or shows no direction). */
export function favoured(c: Comparison): 'a' | 'b' | null {
  if (!c.separable || c.difference === null || c.difference === 0) return null;
  return c.difference > 0 ? 'a' : 'b';
}

const pairKey = (a: string, b: string) => `${a}\u0000${b}`;

/** The comparison of two labels, whichever way round it was made. */
export function lookup(comparisons: readonly Comparison[]): (a: string, b: string) => Comparison | undefined {
  const map = new Map<string, Comparison>();
  for (const c of comparisons) map.set(pairKey(c.a, c.b), c);
  return (a, b) => map.get(pairKey(a, b)) ?? map.get(pairKey(b, a));
}

/**
 * Ranks of the ranked labels (in order): rank = position; rankRange = [1 + subjects shown better, n − subjects shown
 * worse], the ranks the data leave open (e.g. "1–2" for two subjects not told apart). The tests are of adjacent
 * ranks (and a baseline against each): a separable adjacent step that favours the higher of the two shows every
 * subject above it better than every subject below it (the steps chain along the order); any other separable test
 * shows its winner better than its loser.
 */
export function rankStandings(
  ranked: readonly string[],
  comparisons: readonly Comparison[],
): Map<string, Pick<Standing, 'rank' | 'rankRange' | 'rankLabel'>> {
  const find = lookup(comparisons);
  const n = ranked.length;
  // step[t]: the test of ranks t and t + 1 separates them, the higher ahead
  const step = ranked.slice(0, -1).map((label, t) => {
    const c = find(label, ranked[t + 1]);
    const side = c ? favoured(c) : null;
    return side !== null && (side === 'a' ? c?.a : c?.b) === label;
  });
  const position = new Map(ranked.map((label, i) => [label, i]));
  const better = ranked.map(() => new Set<number>());
  const worse = ranked.map(() => new Set<number>());
  for (let i = 0; i < n; i++) {
    // everything above the last step over i is better, everything below the first step under it worse
    const above = step.slice(0, i).lastIndexOf(true);
    for (let j = 0; j <= above; j++) better[i].add(j);
    const below = step.indexOf(true, i);
    if (below >= 0) for (let j = below + 1; j < n; j++) worse[i].add(j);
  }
  for (const c of comparisons) {
    const side = favoured(c);
    const a = position.get(c.a);
    const b = position.get(c.b);
    if (side === null || a === undefined || b === undefined) continue;
    const [winner, loser] = side === 'a' ? [a, b] : [b, a];
    worse[winner].add(loser);
    better[loser].add(winner);
  }
  const out = new Map<string, Pick<Standing, 'rank' | 'rankRange' | 'rankLabel'>>();
  ranked.forEach((label, index) => {
    const range: [number, number] = [better[index].size + 1, n - worse[index].size];
    out.set(label, {
      rank: index + 1,
      rankRange: range,
      rankLabel: range[0] === range[1] ? `${range[0]}` : `${range[0]}–${range[1]}`,
    });
  });
  return out;
}

/** A p-value as a reader sees it: two significant digits, or "< 0.001". */
export const formatP = (p: number): string => (p < 0.001 ? '< 0.001' : `= ${Number(p.toPrecision(2))}`);

/**
 * The relation between each adjacent pair of ranks. `describe` words a separation made without a p-value (the SCC
 * ladder's bounds); `rankedBy` names the ranking metric where it differs from the tested one.
 */
export function adjacentRelations(
  ranked: readonly string[],
  comparisons: readonly Comparison[],
  words: { rankedBy: string; tested: string; bounds?: (c: Comparison) => string },
): Relation[] {
  const find = lookup(comparisons);
  const relations: Relation[] = [];
  for (let i = 0; i + 1 < ranked.length; i++) {
    const higher = ranked[i];
    const lower = ranked[i + 1];
    const c = find(higher, lower);
    if (c?.status !== 'ok') {
      const why = c?.reason ?? 'no comparison';
      relations.push({ higher, lower, relation: '?', p: null, text: `${higher} ? ${lower} (no test: ${why})` });
      continue;
    }
    const side = favoured(c);
    const winner = side === null ? null : side === 'a' ? c.a : c.b;
    const relation = winner === null ? '≈' : winner === higher ? '>' : '<';
    const evidence = words.bounds ? words.bounds(c) : `p ${formatP(c.pAdjusted ?? 1)}`;
    const text =
      relation === '<'
        ? `${higher} < ${lower} (${evidence}): ${higher} ranks above by ${words.rankedBy}, but ${lower} has the higher ${words.tested}`
        : `${higher} ${relation} ${lower} (${evidence})`;
    relations.push({ higher, lower, relation, p: words.bounds ? null : (c.pAdjusted ?? null), text });
  }
  return relations;
}
