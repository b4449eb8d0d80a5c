import type { TrialRecord } from '../schema/trial.js';
import { countedSuccess, type MissingRule } from '../tasks/outcome.js';
import type { LevelTrials } from './input.js';

/**
 * Matched trials of two subjects at one level, tallied by who succeeded. Pairs where either side is missing data
 * under the rule are `dropped` (never counted as a failure).
 */
export interface PairTable {
  level: number;
  both: number;
  aOnly: number;
  bOnly: number;
  neither: number;
  dropped: number;
}

export type SweepPairing = { paired: true; tables: PairTable[] } | { paired: false; reason: string };

const identity = (t: TrialRecord): string => `${t.seed}:${t.trialIndex}`;

/** Matches trials by (instance seed, trial index): the same instances, trial for trial, or a reason why not. */
function matchTrials(
  a: readonly TrialRecord[],
  b: readonly TrialRecord[],
  level: number,
  names: readonly [string, string],
): { pairs: Array<[TrialRecord, TrialRecord]> } | { reason: string } {
  if (a.length === 0 || b.length === 0) {
    const which = a.length === 0 ? names[0] : names[1];
    return { reason: `level ${level}: ${which} has no trial records` };
  }
  if (a.length !== b.length)
    return {
      reason: `level ${level}: different trial counts (${names[0]}: ${a.length}, ${names[1]}: ${b.length})`,
    };
  const byIdentity = new Map<string, TrialRecord>();
  for (const [side, trials] of [
    [names[0], a],
    [names[1], b],
  ] as const) {
    const seen = new Set<string>();
    for (const t of trials) {
      if (seen.has(identity(t))) {
        return { reason: `level ${level}: ${side} repeats instance seed ${t.seed}, trial ${t.trialIndex}` };
      }
      seen.add(identity(t));
    }
  }
  for (const t of a) byIdentity.set(identity(t), t);
  const pairs: Array<[TrialRecord, TrialRecord]> = [];
  let unmatched = 0;
  for (const t of b) {
    const partner = byIdentity.get(identity(t));
    if (partner) pairs.push([partner, t]);
    else unmatched++;
  }
  if (unmatched > 0) {
    return {
      reason: `level ${level}: ${unmatched} of ${b.length} trials have no partner with the same instance seed and trial index`,
    };
  }
  return { pairs };
}

function tally(level: number, pairs: ReadonlyArray<[TrialRecord, TrialRecord]>, rule: MissingRule): PairTable {
  const table: PairTable = { level, both: 0, aOnly: 0, bOnly: 0, neither: 0, dropped: 0 };
  for (const [ta, tb] of pairs) {
    const sa = countedSuccess(ta.outcome, rule);
    const sb = countedSuccess(tb.outcome, rule);
    if (sa === null || sb === null) table.dropped++;
    else if (sa && sb) table.both++;
    else if (sa) table.aOnly++;
    else if (sb) table.bOnly++;
    else table.neither++;
  }
  return table;
}

/**
 * Two subjects' sweeps are paired when they ran the same levels and every level holds the same instances (checked
 * on the trials, never assumed from a seed). `hint` is appended to a reason (e.g. the run seeds differ).
 */
export function pairSweeps(
  a: readonly LevelTrials[],
  b: readonly LevelTrials[],
  rule: MissingRule,
  names: readonly [string, string],
  hint = '',
): SweepPairing {
  const fail = (reason: string): SweepPairing => ({ paired: false, reason: `${reason}${hint}` });
  if (a.length === 0 || b.length === 0) {
    return fail(`${a.length === 0 ? names[0] : names[1]} has no cells with trial records`);
  }
  const levelsA = a.map((l) => l.level);
  const levelsB = b.map((l) => l.level);
  const onlyA = levelsA.filter((l) => !levelsB.includes(l));
  const onlyB = levelsB.filter((l) => !levelsA.includes(l));
  if (onlyA.length > 0 || onlyB.length > 0) {
    const side = onlyA.length > 0 ? names[0] : names[1];
    return fail(`level(s) ${(onlyA.length > 0 ? onlyA : onlyB).join(', ')} only in ${side}`);
  }
  const tables: PairTable[] = [];
  for (let i = 0; i < a.length; i++) {
    const matched = matchTrials(a[i].trials, b[i].trials, a[i].level, names);
    if ('reason' in matched) return fail(matched.reason);
    tables.push(tally(a[i].level, matched.pairs, rule));
  }
  return { paired: true, tables };
}

/** Pairs used (both sides counted) and dropped (missing data on either side) over the tables. */
export function pairCounts(tables: readonly PairTable[]): { pairs: number; dropped: number } {
  let pairs = 0;
  let dropped = 0;
  for (const t of tables) {
    pairs += t.both + t.aOnly + t.bOnly + t.neither;
    dropped += t.dropped;
  }
  return { pairs, dropped };
}
