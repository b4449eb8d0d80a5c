import { buildSpend } from '../../../reporters/projections/spend.js';
import {
  compareVariants,
  fitCollapseSweep,
  fitRetentionSweep,
  summarizeCell,
} from '../../../src/assays/sweep/index.js';
import { baselineFromReport } from '../../../src/compare/baseline.js';
import { PyRandom } from '../../../src/rng/index.js';
import type { Baseline } from '../../../src/schema/baseline.js';
import type { CellResult } from '../../../src/schema/cell.js';
import type { Report } from '../../../src/schema/report.js';
import type { SccTier } from '../../../src/schema/scc.js';
import type { TrialRecord } from '../../../src/schema/trial.js';
import type { AnyTaskPlugin } from '../../../src/tasks/task.js';
import { sccResult, sccTier, sccTrial } from '../../support/assay-results.js';

/**
 * A small but realistic ceilingbench.json for the HTML report: trials are simulated with a seeded
 * PyRandom (geometric step retention for CCB, a logistic cliff for puzzles, a finite counter with
 * attractor answers for SCC) and then aggregated by the real summarizeCell / fitRetentionSweep /
 * fitCollapseSweep / compareVariants, so every number in it is one the harness itself would print.
 * Trial arrays are dropped from the cells afterwards to keep the fixture small.
 */

const DEPTHS = [5, 10, 15, 20, 25, 30, 35, 40, 45, 50];
const N_TRIALS = 40;

const plugin = (id: string, family: 'ccb' | 'puzzle', kind: 'depth' | 'level', knob?: (l: number) => number) =>
  ({ id, family, levels: { kind, knob } }) as unknown as AnyTaskPlugin;

function trial(
  task: string,
  level: number,
  seed: number,
  index: number,
  variant: string,
  outcome: TrialRecord['outcome'],
) {
  return {
    task,
    level,
    seed,
    trialIndex: index,
    profile: 'official',
    variant,
    outcome,
    finishReason: outcome.kind === 'truncation' ? 'length' : 'stop',
    usage: { promptTokens: 300 + 20 * level, completionTokens: 40 * level },
    latencyMs: 0,
    cacheHit: false,
    attempts: 1,
  } satisfies TrialRecord;
}

/** One CCB trial: every step kept with probability p; k* is the first lost step. */
function ccbOutcome(rng: PyRandom, depth: number, p: number): TrialRecord['outcome'] {
  const base = { family: 'ccb' as const, issues: [] as string[] };
  const u = rng.random();
  if (u < 0.01) return { ...base, kind: 'api', answerCorrect: false, kStar: -1, tfbc: false };
  if (u < 0.04) return { ...base, kind: 'format', answerCorrect: false, kStar: -1, tfbc: false };
  if (u < 0.05) return { ...base, kind: 'truncation', answerCorrect: false, kStar: -1, tfbc: false };
  let kStar = -1;
  for (let step = 1; step <= depth; step++) {
    if (rng.random() >= p) {
      kStar = step;
      break;
    }
  }
  if (kStar === -1) return { ...base, kind: 'correct', answerCorrect: true, kStar, tfbc: false };
  // A diverged trace occasionally still lands on the right answer (TFBC).
  if (rng.random() < 0.04) return { ...base, kind: 'correct', answerCorrect: true, kStar, tfbc: true };
  const kind = rng.random() < 0.3 ? 'constraint' : 'reasoning';
  return { ...base, kind, answerCorrect: false, kStar, tfbc: false };
}

function ccbCell(rng: PyRandom, task: string, depth: number, p: number, variant = 'standard'): CellResult {
  const trials = Array.from({ length: N_TRIALS }, (_, i) =>
    trial(task, depth, 1000 * depth + i, i, variant, ccbOutcome(rng, depth, p)),
  );
  const id = { project: task, task: plugin(task, 'ccb', 'depth'), level: depth, profile: 'official', variant };
  return summarizeCell({ ...id, seedOffset: 0, maxMissingFraction: 0.2 }, trials);
}

function puzzleCell(rng: PyRandom, task: string, level: number, cliff: number): CellResult {
  const pass = 1 / (1 + Math.exp(2.2 * (level - cliff)));
  const trials = Array.from({ length: 20 }, (_, i) => {
    const u = rng.random();
    const kind = u < pass ? 'pass' : u < pass + (1 - pass) * 0.3 ? 'collapse' : 'fail';
    const kStar = kind === 'fail' ? 1 + rng.randbelow(2 * level + 1) : -1;
    return trial(task, level, 100 * level + i, i, 'default', {
      family: 'puzzle',
      kind,
      kStar,
      tfbc: false,
      issues: [],
    });
  });
  const id = { project: 'puzzles', task: plugin(task, 'puzzle', 'level', (l) => l + 2), level, profile: 'default' };
  return summarizeCell({ ...id, variant: 'default', seedOffset: 0, maxMissingFraction: 0.2 }, trials);
}

/** SCC: the authors' ladder (expand ×2, then bisect to 10%) over a counter that is exact up to `capacity`. */
function sccRecord(rng: PyRandom, capacity: number): Report['scc'][number] {
  const K = 16;
  const attractorValues = [500, 1000, 200, 300];
  const tiers: SccTier[] = [];
  const wrongPast: number[] = [];
  let lowPass = 0;
  let firstFail: number | null = null;
  let center = 32;
  let phase: 'expansion' | 'refine' = 'expansion';
  for (let index = 0; index < 30; index++) {
    const low = Math.max(1, Math.floor(center * 0.8));
    const high = Math.ceil(center * 1.2);
    const trials = Array.from({ length: K }, (_, i) => {
      const target = rng.randint(low, high);
      const over = target > capacity;
      const parsed = !over
        ? target
        : rng.random() < 0.6
          ? attractorValues[rng.randbelow(attractorValues.length)]
          : Math.round(target * (0.6 + 0.5 * rng.random()));
      if (over && parsed !== target) wrongPast.push(parsed);
      const relativeError = Math.abs(parsed - target) / target;
      return sccTrial({ trialIndex: i, target, parsed, relativeError, exact: parsed === target });
    });
    const mape = trials.reduce((s, t) => s + (t.relativeError ?? 0), 0) / K;
    const passed = mape <= 0.05;
    tiers.push(
      sccTier({
        evaluationIndex: index,
        phase,
        center,
        sampleLow: low,
        sampleHigh: high,
        targets: trials.map((t) => t.target),
        passed,
        parseRate: 1,
        mape,
        issued: K,
        trials,
      }),
    );
    if (passed) lowPass = center;
    else firstFail = firstFail === null ? center : Math.min(firstFail, center);
    if (phase === 'expansion' && passed) {
      center *= 2;
      continue;
    }
    phase = 'refine';
    if (firstFail === null || firstFail - lowPass <= Math.max(1, Math.ceil(0.1 * Math.ceil((lowPass + firstFail) / 2))))
      break;
    center = Math.max(lowPass + 1, Math.min(firstFail - 1, Math.round((lowPass + firstFail) / 2)));
  }
  const byValue = new Map<number, number>();
  for (const v of wrongPast) byValue.set(v, (byValue.get(v) ?? 0) + 1);
  const attractors = [...byValue.entries()]
    .filter(([, count]) => count >= 3)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .map(([value, count]) => ({ value, count, share: count / wrongPast.length }));
  const result = sccResult({
    task: 'count',
    cc: lowPass,
    ccLower: lowPass,
    ccUpper: firstFail,
    bounded: firstFail !== null,
    errorBar: { lower: lowPass, upper: firstFail ?? lowPass + 1 },
    tiers,
    calls: tiers.length * K,
    attractors,
  });
  return {
    kind: 'scc',
    project: 'scc',
    task: 'count',
    cc: lowPass,
    ccLower: lowPass,
    ccUpper: firstFail ?? lowPass,
    bounded: firstFail !== null,
    result,
  };
}

export interface SampleOptions {
  seed: number;
  /** Step retention per CCB task. */
  pd: Record<string, number>;
  capacity: number;
  startedAt: string;
}

export const SAMPLE_OPTIONS: SampleOptions = {
  seed: 1,
  pd: { d1: 0.93, d2: 0.965, d3: 0.82 },
  capacity: 300,
  startedAt: '2026-11-20T10:00:00.000Z',
};

export function sampleReport(options: SampleOptions = SAMPLE_OPTIONS): Report {
  const rng = new PyRandom(options.seed);
  const cells: CellResult[] = [];
  const fits: Report['fits'] = [];
  for (const [task, p] of Object.entries(options.pd)) {
    const sweep = DEPTHS.map((depth) => ccbCell(rng, task, depth, p));
    cells.push(...sweep);
    fits.push(fitRetentionSweep(sweep, { project: task, missing: 'paper', seed: options.seed }));
  }
  const d3 = cells.find((c) => c.task === 'd3' && c.level === 10) as CellResult;
  const verbose = ccbCell(new PyRandom(options.seed + 7), 'd3', 10, options.pd.d3, 'verbose');
  cells.push(verbose);
  const ablations = [compareVariants(d3, [verbose], 'd3')];
  const collapse: Report['collapse'] = [];
  for (const [task, cliff] of [
    ['checker_jumping', 3.5],
    ['tower_of_hanoi', 4.6],
    ['river_crossing', 2.4],
  ] as const) {
    const sweep = [1, 2, 3, 4, 5, 6].map((level) => puzzleCell(rng, task, level, cliff));
    cells.push(...sweep);
    collapse.push(fitCollapseSweep(sweep, { project: 'puzzles', seed: options.seed }));
  }
  const scc = [sccRecord(rng, options.capacity)];
  const d2 = fits.find((f) => f.task === 'd2') as Report['fits'][number];
  const d3fit = fits.find((f) => f.task === 'd3') as Report['fits'][number];
  const gates: Report['gates'] = [
    {
      project: 'd2',
      task: 'd2',
      gate: 'pd',
      mode: 'hard',
      threshold: 0.9,
      estimate: d2.pd,
      ci95: d2.ci95,
      passed: d2.ci95[0] >= 0.9,
      message: 'p_d lower bound ≥ 0.9',
    },
    {
      project: 'd3',
      task: 'd3',
      gate: 'pd',
      mode: 'advisory',
      threshold: 0.9,
      estimate: d3fit.pd,
      ci95: d3fit.ci95,
      passed: d3fit.ci95[0] >= 0.9,
      message: 'p_d lower bound ≥ 0.9',
    },
  ];
  // the accounts are summed from the trials, before they are dropped (a sim subject at a made-up sample price)
  const subject = { spec: 'sim:retention?p=0.95', kind: 'sim' as const, parameters: { p: 0.95 } };
  const spend = buildSpend({
    cells: cells.map((cell) => ({ cell, subject: subject.spec })),
    assays: scc.map((record) => ({ record, subject: subject.spec })),
    subjects: [subject],
    prices: { [subject.spec]: { input: 0.15, output: 0.6 } },
  });
  for (const c of cells) c.trials = [];
  // Record kinds this sample has none of, spread so the literal type-checks whichever of them the schema has.
  const none = { sccAssays: [] };
  const trials = cells.reduce((s, c) => s + c.n, 0);
  const missing = cells.reduce((s, c) => s + c.missing, 0);
  return {
    schemaVersion: 1,
    tool: { name: 'ceilingbench', version: '0.1.0' },
    seed: options.seed,
    subjects: [subject],
    git: { sha: '0123456789abcdef0123456789abcdef01234567' },
    projects: ['d1', 'd2', 'd3', 'puzzles', 'scc'],
    cells,
    fits,
    collapse,
    ablations,
    scc,
    gates,
    tests: [],
    summary: {
      cells: cells.length,
      trials,
      missing,
      missingRate: missing / trials,
      insufficientCells: cells.filter((c) => c.status === 'insufficient').length,
      hardGatesFailed: gates.filter((g) => g.mode === 'hard' && !g.passed).length,
      testsFailed: 0,
    },
    spend,
    timing: {
      startedAt: options.startedAt,
      finishedAt: options.startedAt.replace('10:00:00', '10:03:12'),
      durationMs: 192000,
    },
    ...none,
  };
}

/** Two earlier releases of the same sim subject, as `ceilingbench baseline save` would store them. */
export function sampleBaselines(): Baseline[] {
  const releases = [
    {
      name: 'sim-2026-09',
      seed: 11,
      pd: { d1: 0.9, d2: 0.94, d3: 0.78 },
      capacity: 160,
      startedAt: '2026-09-15T10:00:00.000Z',
    },
    {
      name: 'sim-2026-10',
      seed: 12,
      pd: { d1: 0.92, d2: 0.955, d3: 0.8 },
      capacity: 230,
      startedAt: '2026-10-15T10:00:00.000Z',
    },
  ];
  return releases.map((r) => baselineFromReport(sampleReport(r), r.name));
}
