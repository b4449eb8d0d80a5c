import type { PyRandom } from '../../../rng/index.js';
import type { TaskInstance } from '../../task.js';
import type { PerLevel, PuzzleContent } from '../common/index.js';

export interface SatLevel {
  /** Variables. */
  n: number;
  /** Clauses, round(4.26 n): the satisfiability threshold of random 3-SAT. */
  m: number;
}

/** 3-SAT levels (docs/spec/puzzles.md §1.2). */
export const SAT_LEVELS: PerLevel<SatLevel> = [
  { n: 5, m: 21 },
  { n: 8, m: 34 },
  { n: 12, m: 51 },
  { n: 16, m: 68 },
  { n: 20, m: 85 },
  { n: 30, m: 128 },
];

/**
 * q-hidden planted 3-SAT (docs/spec/puzzles.md §5). A hidden assignment A is drawn; each
 * candidate clause takes 3 distinct variables (sampled without replacement) and independent signs, is
 * rejected when no literal is true under A, and otherwise accepted with probability q^(t−1), t = the
 * number of true literals. q = (√5 − 1)/2 makes the expected number of true literals per clause 3/2, so
 * literal polarity carries no information about A. Duplicate clauses (same literal set) are not allowed.
 */
export const Q_HIDDEN = (Math.sqrt(5) - 1) / 2;

export interface SatData {
  n: number;
  m: number;
  /** Clauses of signed variable indices ±1…±n, DIMACS style. */
  clauses: number[][];
  /** The hidden assignment, index v−1 → value of variable v; it satisfies every clause. */
  planted: boolean[];
  generator: 'q-hidden';
  q: number;
  duplicateClauses: false;
  /** Candidate clauses drawn, including those rejected by the q-hidden filter or as duplicates. */
  clauseDraws: number;
}

/** `answer`: the planted assignment as the JSON object the prompt asks for, keys "1"…"n". */
export type SatInstance = TaskInstance<SatData, never, Record<string, boolean>>;

/** True literals of a clause under an assignment (index v−1). */
export const trueLiterals = (clause: readonly number[], assignment: readonly boolean[]): number =>
  clause.reduce((count, lit) => count + (assignment[Math.abs(lit) - 1] === lit > 0 ? 1 : 0), 0);

export function generateSat({ n, m }: SatLevel, rng: PyRandom): PuzzleContent<SatData, never, Record<string, boolean>> {
  const planted = Array.from({ length: n }, () => rng.getrandbits(1) === 1);
  const variables = Array.from({ length: n }, (_, i) => i + 1);
  const clauses: number[][] = [];
  const seen = new Set<string>();
  let clauseDraws = 0;
  const maxDraws = 10_000 * m;
  while (clauses.length < m) {
    if (clauseDraws >= maxDraws) throw new Error(`sat: could not draw ${m} distinct clauses over ${n} variables`);
    clauseDraws++;
    const chosen = rng.sample(variables, 3);
    const signs = rng.getrandbits(3);
    const clause = chosen.map((v, i) => ((signs >> i) & 1 ? -v : v));
    const t = trueLiterals(clause, planted);
    if (t === 0) continue;
    if (t > 1 && rng.random() >= Q_HIDDEN ** (t - 1)) continue;
    const key = [...clause].sort((a, b) => a - b).join(',');
    if (seen.has(key)) continue;
    seen.add(key);
    clauses.push(clause);
  }
  const data: SatData = {
    n,
    m,
    clauses,
    planted,
    generator: 'q-hidden',
    q: Q_HIDDEN,
    duplicateClauses: false,
    clauseDraws,
  };
  return { data, answer: Object.fromEntries(planted.map((value, i) => [String(i + 1), value])) };
}
