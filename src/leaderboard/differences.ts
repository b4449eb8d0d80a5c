import { PyRandom } from '../rng/index.js';
import type { CellResult } from '../schema/cell.js';
import type { RetentionFit } from '../schema/fit.js';
import type { Comparison, Pairing } from '../schema/leaderboard.js';
import {
  type DepthCount,
  fisherExact,
  fitRetention,
  mcnemarExact,
  PD_LOWER,
  quantileLinear,
  sampleBinomial,
} from '../stats/index.js';
import { maximizeConcaveRetention } from '../stats/retention.js';
import { retentionDifferenceDraws } from '../stats/retention-difference.js';
import type { MissingRule } from '../tasks/outcome.js';
import { countedTally, type LevelTrials } from './input.js';
import { type PairTable, pairCounts, pairSweeps, type SweepPairing } from './pairing.js';

/** A raw comparison, before the project's Holm adjustment fills `pAdjusted` and `separable`. */
export type RawComparison = Omit<Comparison, 'pAdjusted' | 'separable'>;

/**
 * Two-sided bootstrap p of "difference = 0": twice the smaller share of resampled differences on either side of 0
 * (ties on both), with the +1 of a Monte Carlo p-value, so p ≥ 2/(B + 1) and p = 1 when every draw is 0.
 * Negating every draw leaves it unchanged.
 */
export function bootstrapP(draws: readonly number[]): number {
  let atOrBelow = 0;
  let atOrAbove = 0;
  for (const d of draws) {
    if (d <= 0) atOrBelow++;
    if (d >= 0) atOrAbove++;
  }
  return Math.min(1, (2 * (Math.min(atOrBelow, atOrAbove) + 1)) / (draws.length + 1));
}

const sortedNumbers = (values: readonly number[]): number[] => [...values].sort((x, y) => x - y);

/** Percentile 95% interval of sorted draws (numpy's linear rule). */
const percentileInterval = (sorted: readonly number[]): [number, number] => [
  quantileLinear(sorted, 0.025),
  quantileLinear(sorted, 0.975),
];

/** Per-depth counts of side a or b of paired tables. */
export function sideCounts(tables: readonly PairTable[], side: 'a' | 'b'): DepthCount[] {
  return tables.map((t) => ({
    depth: t.level,
    correct: t.both + (side === 'a' ? t.aOnly : t.bOnly),
    n: t.both + t.aOnly + t.bOnly + t.neither,
  }));
}

/**
 * The paired bootstrap of Δp_d = p_d(a) − p_d(b): within each depth the counted instance pairs are resampled with
 * replacement (drawn as a multinomial over the four (a, b) outcome cells: the same law), jointly for both
 * subjects, and both p_d refitted (src/stats fitRetention). Returns the point difference on the pairs and the B
 * resampled differences, in draw order.
 */
export function pairedRetentionDraws(
  tables: readonly PairTable[],
  rng: PyRandom,
  resamples: number,
): { difference: number; draws: number[] } {
  const difference = fitRetention(sideCounts(tables, 'a')).pd - fitRetention(sideCounts(tables, 'b')).pd;
  const cells = tables.map((t) => [t.both, t.aOnly, t.bOnly, t.neither]);
  const totals = cells.map((c) => c[0] + c[1] + c[2] + c[3]);
  const exponents = Float64Array.from(tables, (t) => t.level);
  const correctA = new Float64Array(tables.length);
  const failedA = new Float64Array(tables.length);
  const correctB = new Float64Array(tables.length);
  const failedB = new Float64Array(tables.length);
  const draws: number[] = [];
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < tables.length; i++) {
      const [both, aOnly, bOnly] = multinomial(rng, cells[i]);
      correctA[i] = both + aOnly;
      failedA[i] = totals[i] - correctA[i];
      correctB[i] = both + bOnly;
      failedB[i] = totals[i] - correctB[i];
    }
    draws.push(mlePd(exponents, correctA, failedA) - mlePd(exponents, correctB, failedB));
  }
  return { difference, draws };
}

const X_LOWER = Math.log(PD_LOWER);

/** fitRetention's p_d from packed counts (its own maximiser, without the log-likelihood it also reports). */
function mlePd(exponents: Float64Array, correct: Float64Array, failed: Float64Array): number {
  const x = maximizeConcaveRetention(exponents, correct, failed, X_LOWER);
  return x === X_LOWER ? PD_LOWER : Math.exp(x);
}

/** One multinomial draw of Σ counts items over the categories with probabilities counts / Σ counts. */
function multinomial(rng: PyRandom, counts: readonly number[]): number[] {
  let remainingItems = counts.reduce((s, c) => s + c, 0);
  let remainingMass = remainingItems;
  return counts.map((c, i) => {
    if (i === counts.length - 1) return remainingItems;
    const k = remainingMass === 0 ? 0 : sampleBinomial(rng, remainingItems, c / remainingMass);
    remainingItems -= k;
    remainingMass -= c;
    return k;
  });
}

/** Two subjects' sides of a retention board: their fit, their cells of the sweep by level, their run seed. */
export interface RetentionSide {
  label: string;
  seed: number | null;
  fit: RetentionFit;
  levels: LevelTrials[];
}

export interface ComparisonSettings {
  resamples: number;
  /** Root of the per-pair RNG seeds; each pair's stream depends on the pair only, not on the other subjects. */
  seed: number;
}

const runSeedHint = (a: { seed: number | null }, b: { seed: number | null }): string =>
  a.seed !== null && b.seed !== null && a.seed !== b.seed ? ` (run seeds ${a.seed} and ${b.seed})` : '';

const toPairing = (pairing: SweepPairing): Pairing =>
  pairing.paired ? { paired: true, ...pairCounts(pairing.tables) } : { paired: false, reason: pairing.reason };

/**
 * Compares in label order and orients the result to (a, b): the same two subjects always use the same random
 * stream, so exchanging them negates the difference and its interval and keeps p, exactly.
 */
function oriented<S extends { label: string }>(
  a: S,
  b: S,
  compute: (first: S, second: S) => RawComparison,
): RawComparison {
  if (a.label === b.label) throw new RangeError(`leaderboard: cannot compare '${a.label}' with itself`);
  if (a.label < b.label) return compute(a, b);
  const r = compute(b, a);
  return {
    ...r,
    a: a.label,
    b: b.label,
    difference: r.difference === null ? null : -r.difference,
    ci95: r.ci95 === null ? null : [-r.ci95[1], -r.ci95[0]],
    ...(r.discordant ? { discordant: { aOnly: r.discordant.bOnly, bOnly: r.discordant.aOnly } } : {}),
  };
}

const pairSeed = (settings: ComparisonSettings, scope: string, first: string, second: string): string =>
  `ceilingbench-leaderboard|${settings.seed}|${scope}|${first}|${second}`;

/** The resampled differences of a retention pair, paired or unpaired, in label order (see `oriented`). */
export function retentionDraws(
  first: RetentionSide,
  second: RetentionSide,
  rule: MissingRule,
  settings: ComparisonSettings,
):
  | {
      pairing: SweepPairing;
      difference: number;
      draws: number[];
      method: 'paired-bootstrap' | 'parametric-bootstrap';
    }
  | { insufficient: string; pairing: SweepPairing } {
  const names = [first.label, second.label] as const;
  const pairing = pairSweeps(first.levels, second.levels, rule, names, runSeedHint(first, second));
  for (const side of [first, second]) {
    if (side.fit.status !== 'ok') {
      return { insufficient: `${side.label}: ${side.fit.insufficientReason ?? 'fit insufficient'}`, pairing };
    }
  }
  const fit = first.fit;
  const rng = new PyRandom(pairSeed(settings, `${fit.project}|${fit.task}|${fit.variant}`, ...names));
  if (pairing.paired) {
    if (pairCounts(pairing.tables).pairs === 0) {
      return { insufficient: 'no instance pair where both subjects count', pairing };
    }
    return {
      pairing,
      method: 'paired-bootstrap',
      ...pairedRetentionDraws(pairing.tables, rng, settings.resamples),
    };
  }
  // retentionDifferenceDraws gives candidate − baseline: first − second.
  const { difference, draws } = retentionDifferenceDraws(second.fit.counts, first.fit.counts, {
    rng,
    resamples: settings.resamples,
  });
  return { pairing, method: 'parametric-bootstrap', difference, draws };
}

/** Δp_d = p_d(a) − p_d(b) with its 95% bootstrap interval and two-sided p (paired when the trials allow). */
export function compareRetention(
  a: RetentionSide,
  b: RetentionSide,
  rule: MissingRule,
  settings: ComparisonSettings,
): RawComparison {
  return oriented(a, b, (first, second) => {
    const base = { a: first.label, b: second.label, metric: 'p_d' as const };
    const result = retentionDraws(first, second, rule, settings);
    if ('insufficient' in result) {
      return {
        ...base,
        method: result.pairing.paired ? 'paired-bootstrap' : 'parametric-bootstrap',
        pairing: toPairing(result.pairing),
        status: 'insufficient',
        reason: result.insufficient,
        difference: null,
        ci95: null,
        p: null,
      };
    }
    const sorted = sortedNumbers(result.draws);
    return {
      ...base,
      method: result.method,
      pairing: toPairing(result.pairing),
      status: 'ok',
      difference: result.difference,
      ci95: percentileInterval(sorted),
      p: bootstrapP(sorted),
    };
  });
}

/** One subject's side of an accuracy comparison: its trials by level, and its tallies when unpaired. */
export interface AccuracySide {
  label: string;
  seed: number | null;
  levels: LevelTrials[];
  /** Successes and counted trials to use when the trials cannot be paired (e.g. a collapse fit's levels). */
  tally?: { successes: number; counted: number };
}

/**
 * Accuracy of a over b on the given levels: exact McNemar on the discordant pairs when the trials pair (missing
 * data on either side drops the pair), two-sided Fisher exact on the counted trials otherwise.
 */
export function compareAccuracy(a: AccuracySide, b: AccuracySide, rule: MissingRule): RawComparison {
  return oriented(a, b, (first, second) => {
    const base = { a: first.label, b: second.label, metric: 'accuracy' as const };
    const pairing = pairSweeps(
      first.levels,
      second.levels,
      rule,
      [first.label, second.label],
      runSeedHint(first, second),
    );
    if (pairing.paired) {
      const counts = pairCounts(pairing.tables);
      const aOnly = pairing.tables.reduce((s, t) => s + t.aOnly, 0);
      const bOnly = pairing.tables.reduce((s, t) => s + t.bOnly, 0);
      const both = pairing.tables.reduce((s, t) => s + t.both, 0);
      if (counts.pairs === 0) {
        return {
          ...base,
          method: 'mcnemar-exact',
          pairing: toPairing(pairing),
          status: 'insufficient',
          reason: 'no instance pair where both subjects count',
          difference: null,
          ci95: null,
          p: null,
        };
      }
      return {
        ...base,
        method: 'mcnemar-exact',
        pairing: toPairing(pairing),
        status: 'ok',
        difference: (both + aOnly) / counts.pairs - (both + bOnly) / counts.pairs,
        ci95: null,
        p: mcnemarExact(aOnly, bOnly).p,
        discordant: { aOnly, bOnly },
      };
    }
    const ta = first.tally ?? countedTally(cellsOf(first.levels), rule);
    const tb = second.tally ?? countedTally(cellsOf(second.levels), rule);
    if (ta.counted === 0 || tb.counted === 0) {
      return {
        ...base,
        method: 'fisher-exact',
        pairing: toPairing(pairing),
        status: 'insufficient',
        reason: `${ta.counted === 0 ? first.label : second.label} has no counted trial`,
        difference: null,
        ci95: null,
        p: null,
      };
    }
    return {
      ...base,
      method: 'fisher-exact',
      pairing: toPairing(pairing),
      status: 'ok',
      difference: ta.successes / ta.counted - tb.successes / tb.counted,
      ci95: null,
      p: fisherExact(ta.successes, ta.counted - ta.successes, tb.successes, tb.counted - tb.successes).p,
    };
  });
}

const cellsOf = (levels: readonly LevelTrials[]): CellResult[] => levels.flatMap((l) => l.cells);
