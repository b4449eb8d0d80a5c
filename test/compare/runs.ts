import type { Baseline } from '../../src/schema/baseline.js';
import { fitRetention } from '../../src/stats/index.js';

// Small hand-built baselines for the comparison tests: a CCB sweep is a retention fit and its cells, with
// counts a sim of retention p would give (correct = round(n · p^N)).

export const CCB_LEVELS = [5, 10, 15, 20, 25, 30, 35, 40, 45, 50];

type Part = Partial<Pick<Baseline, 'fits' | 'cells' | 'scc' | 'collapse'>>;

export interface SweepOptions {
  task?: string;
  variant?: string;
  levels?: readonly number[];
  /** Trials per cell, missing ones included. */
  n?: number;
  pd?: number;
  /** Trials missing data (api, budget) per level (same index as `levels`), or one number for all. */
  missing?: number | readonly number[];
  missingRule?: 'paper' | 'release';
}

/** A CCB sweep: its cells and its retention fit over them. */
export function sweep(project: string, options: SweepOptions = {}): Part {
  const { task = project, variant = 'standard', levels = CCB_LEVELS, n = 40, pd = 0.95 } = options;
  const missingAt = (i: number) =>
    typeof options.missing === 'number' ? options.missing : (options.missing?.[i] ?? 0);
  const cells = levels.map((level, i) => {
    const missing = missingAt(i);
    const answered = n - missing;
    return {
      project,
      task,
      variant,
      level,
      successes: Math.round(answered * pd ** level),
      answered,
      ...(missing > 0 ? { missing } : {}),
    };
  });
  const counts = cells.map((c) => ({ depth: c.level, correct: c.successes, n: c.answered }));
  const correct = counts.reduce((s, c) => s + c.correct, 0);
  const fitted = fitRetention(counts).pd;
  const fit = {
    project,
    task,
    variant,
    missing: options.missingRule ?? 'release',
    pd: fitted,
    ci95: [fitted - 0.02, Math.min(1, fitted + 0.02)] as [number, number],
    counts,
    tfbc: 0,
    correct,
    tfbcRate: correct > 0 ? 0 : null,
  };
  return { fits: [fit], cells };
}

export const ladder = (project: string, over: Partial<Baseline['scc'][number]> = {}): Part => ({
  scc: [{ project, task: 'count', cc: 100, ccLower: 96, ccUpper: 104, bounded: true, ...over }],
});

/** A puzzle level sweep: cells at levels 1–6 and its collapse record. */
export function puzzle(project: string, task: string, over: Partial<Baseline['collapse'][number]> = {}): Part {
  const accuracy = [1, 1, 0.9, 0.5, 0.1, 0];
  const cells = accuracy.map((a, i) => ({
    project,
    task,
    variant: 'default',
    level: i + 1,
    successes: Math.round(20 * a),
    answered: 20,
  }));
  return { cells, collapse: [{ project, task, levelIndex: 4, ci95: [3, 5], ...over }] };
}

export const STOP = {
  by: 'budget' as const,
  reason: 'not sent: the spending limit --max-calls 40 was reached',
  tiers: 2,
};

export function run(name: string, ...parts: Part[]): Baseline {
  return {
    schemaVersion: 1,
    name,
    runStartedAt: '2026-01-01T00:00:00.000Z',
    gitSha: null,
    seed: 0,
    subjects: [],
    fits: parts.flatMap((p) => p.fits ?? []),
    cells: parts.flatMap((p) => p.cells ?? []),
    collapse: parts.flatMap((p) => p.collapse ?? []),
    scc: parts.flatMap((p) => p.scc ?? []),
  };
}
