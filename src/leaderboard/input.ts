import type { CellResult } from '../schema/cell.js';
import type { CollapseFit, RetentionFit } from '../schema/fit.js';
import type { SccHeadline } from '../schema/report.js';
import type { TrialRecord } from '../schema/trial.js';
import { isMissingKind, type MissingRule, outcomeKinds } from '../tasks/outcome.js';

/** The records of one subject, as one run (or one run file of a merge) holds them. */
export interface LeaderboardSubject {
  /** The subject spec as given, e.g. `sim:retention?p=0.95`. */
  subject: string;
  /** The run seed; null when the records do not say. Pairing is checked on the trials, never inferred from it. */
  seed: number | null;
  cells: CellResult[];
  fits: RetentionFit[];
  collapse: CollapseFit[];
  scc: SccHeadline[];
}

/** A subject with its label: the spec, or `spec (seed S)` where one spec appears more than once. */
export interface LabelledSubject extends LeaderboardSubject {
  label: string;
}

/** Labels every input uniquely; two inputs with the same spec and seed are one subject given twice (an error). */
export function labelSubjects(inputs: readonly LeaderboardSubject[]): LabelledSubject[] {
  const specCount = new Map<string, number>();
  for (const s of inputs) specCount.set(s.subject, (specCount.get(s.subject) ?? 0) + 1);
  const labels = new Set<string>();
  return inputs.map((s) => {
    const label = (specCount.get(s.subject) ?? 0) > 1 ? `${s.subject} (seed ${s.seed ?? 'unknown'})` : s.subject;
    if (labels.has(label)) {
      throw new RangeError(`leaderboard: '${s.subject}' with run seed ${s.seed} is given twice; pass each run once`);
    }
    labels.add(label);
    return { ...s, label };
  });
}

/** The identity of a cell across subjects: (project, task, variant, profile, budget rule). The level is apart. */
export const sweepKey = (c: Pick<CellResult, 'project' | 'task' | 'variant' | 'profile' | 'budget'>): string =>
  [c.project, c.task, c.variant, c.profile, c.budget ?? ''].join('\u0000');

/** One subject's trials at one level of a sweep (cells of the same key and level merged). */
export interface LevelTrials {
  level: number;
  cells: CellResult[];
  trials: TrialRecord[];
}

/** The subject's cells of one sweep, by level (ascending). */
export function levelsOf(cells: readonly CellResult[], key: string): LevelTrials[] {
  const byLevel = new Map<number, LevelTrials>();
  for (const cell of cells) {
    if (sweepKey(cell) !== key) continue;
    const entry = byLevel.get(cell.level) ?? { level: cell.level, cells: [], trials: [] };
    entry.cells.push(cell);
    entry.trials.push(...cell.trials);
    byLevel.set(cell.level, entry);
  }
  return [...byLevel.values()].sort((a, b) => a.level - b.level);
}

/**
 * Successes and counted trials of cells under a missing-data rule, from the cells' outcome tallies (the records
 * a fit is built from), so that cells stored without their trials still count.
 */
export function countedTally(cells: readonly CellResult[], rule: MissingRule): { successes: number; counted: number } {
  let successes = 0;
  let counted = 0;
  for (const cell of cells) {
    successes += cell.successes;
    for (const kind of outcomeKinds(cell.family)) {
      const n = cell.outcomes[kind] ?? 0;
      if (n === 0) continue;
      if (!isMissingKind(cell.family, kind, rule)) counted += n;
    }
  }
  return { successes, counted };
}
