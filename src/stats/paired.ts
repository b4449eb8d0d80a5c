import { binomialCdf } from './binomial.js';
import { logChoose } from './special.js';

function checkCount(name: string, v: number): void {
  if (!Number.isInteger(v) || v < 0) throw new RangeError(`${name}=${v} must be a non-negative integer`);
}

/**
 * Exact McNemar test on the discordant pairs: b = standard only correct, c = variant only correct;
 * p = min(1, 2 · BinomCDF(min(b, c); b + c, ½)), p = 1 when b + c = 0 (docs/spec/ccb.md §6.4).
 */
export function mcnemarExact(b: number, c: number): { b: number; c: number; p: number } {
  checkCount('b', b);
  checkCount('c', c);
  if (b + c === 0) return { b, c, p: 1 };
  return { b, c, p: Math.min(1, 2 * binomialCdf(Math.min(b, c), b + c, 0.5)) };
}

/**
 * McNemar from paired outcomes [standardCorrect, variantCorrect]. The table is laid out as the paper's
 * Table 4: rows = standard (correct, wrong), columns = variant (correct, wrong); b = table[0][1], c = table[1][0].
 */
export function mcnemarFromPairs(pairs: Array<[boolean, boolean]>): {
  table: [[number, number], [number, number]];
  b: number;
  c: number;
  p: number;
} {
  const table: [[number, number], [number, number]] = [
    [0, 0],
    [0, 0],
  ];
  for (const [standard, variant] of pairs) table[standard ? 0 : 1][variant ? 0 : 1]++;
  return { table, ...mcnemarExact(table[0][1], table[1][0]) };
}

/**
 * Two-sided Fisher exact test on the 2×2 table [[a, b], [c, d]]: the sum of the hypergeometric probabilities
 * (margins fixed) of all tables no more likely than the observed one, with R's relative tolerance 1e-7.
 */
export function fisherExact(a: number, b: number, c: number, d: number): { p: number } {
  for (const [name, v] of [
    ['a', a],
    ['b', b],
    ['c', c],
    ['d', d],
  ] as const) {
    checkCount(name, v);
  }
  const row1 = a + b;
  const col1 = a + c;
  const total = a + b + c + d;
  const row2 = total - row1;
  if (total === 0) return { p: 1 };
  const logDenominator = logChoose(total, col1);
  const logProbability = (x: number) => logChoose(row1, x) + logChoose(row2, col1 - x) - logDenominator;
  const observed = logProbability(a);
  const threshold = observed + Math.log1p(1e-7);
  let p = 0;
  for (let x = Math.max(0, col1 - row2); x <= Math.min(row1, col1); x++) {
    const lp = logProbability(x);
    if (lp <= threshold) p += Math.exp(lp);
  }
  return { p: Math.min(1, p) };
}
