import { depthCounts } from '../../src/assays/sweep/fit-retention.js';
import type { LeaderboardSubject } from '../../src/leaderboard/index.js';
import type { CellResult } from '../../src/schema/cell.js';
import type { RetentionFit } from '../../src/schema/fit.js';
import type { TrialRecord } from '../../src/schema/trial.js';
import { fitRetention } from '../../src/stats/index.js';
import { type CcbOutcomeKind, isMissing, type MissingRule } from '../../src/tasks/outcome.js';

/** A CCB trial as the leaderboard reads one: its identity and its outcome kind. */
export interface SynthTrial {
  seed: number;
  trialIndex: number;
  kind: CcbOutcomeKind;
}

const emptyKStar = { n: 0, mean: null, median: null, early: 0, mid: 0, late: 0, histogram: {} };

function trialRecord(level: number, t: SynthTrial): TrialRecord {
  return {
    task: 'd1',
    level,
    seed: t.seed,
    trialIndex: t.trialIndex,
    profile: 'official',
    variant: 'standard',
    outcome: { family: 'ccb', kind: t.kind, answerCorrect: t.kind === 'correct', kStar: -1, tfbc: false, issues: [] },
    finishReason: 'stop',
    usage: null,
    latencyMs: 0,
    cacheHit: false,
    attempts: 1,
  };
}

/** A d1 cell holding exactly these trials (tallies derived from them). */
export function synthCell(level: number, trials: readonly SynthTrial[]): CellResult {
  const records = trials.map((t) => trialRecord(level, t));
  const outcomes: Record<string, number> = {};
  for (const t of trials) outcomes[t.kind] = (outcomes[t.kind] ?? 0) + 1;
  const successes = outcomes.correct ?? 0;
  const missing = records.filter((r) => isMissing(r.outcome)).length;
  return {
    kind: 'cell',
    project: 'd1',
    task: 'd1',
    family: 'ccb',
    levelKind: 'depth',
    level,
    knob: null,
    profile: 'official',
    variant: 'standard',
    seedOffset: 0,
    n: trials.length,
    outcomes,
    successes,
    missing,
    accuracy: trials.length > missing ? successes / (trials.length - missing) : null,
    ci95: null,
    status: 'ok',
    kStar: emptyKStar,
    tfbc: 0,
    tokens: { prompt: 0, completion: 0, reasoning: 0 },
    cacheHits: 0,
    calls: 0,
    trials: records,
  };
}

/** The fit of these cells with the exact p_d (no bootstrap: the leaderboard reads p_d, status and counts). */
export function synthFit(cells: readonly CellResult[], missing: MissingRule): RetentionFit {
  const counts = depthCounts(cells, missing);
  const mle = fitRetention(counts);
  const counted = counts.reduce((s, c) => s + c.n, 0);
  return {
    kind: 'retention',
    project: 'd1',
    task: 'd1',
    profile: 'official',
    variant: 'standard',
    missing,
    status: counted > 0 ? 'ok' : 'insufficient',
    ...(counted > 0 ? {} : { insufficientReason: 'no counted trials' }),
    counts,
    pd: mle.pd,
    ci95: [mle.pd, mle.pd],
    profileCi95: [mle.pd, mle.pd],
    atLowerBound: mle.atLowerBound,
    horizon: {},
    firstDepthBelow: {},
    logLik: mle.logLik,
    aic: 0,
    bic: 0,
    alternatives: {},
    kStar: emptyKStar,
    correct: cells.reduce((s, c) => s + c.successes, 0),
    tfbc: 0,
    tfbcRate: null,
    formatRate: null,
    truncationRate: null,
    apiRate: null,
    nTrials: cells.reduce((s, c) => s + c.n, 0),
  };
}

/** One subject's records from its trials per level. */
export function synthSubject(
  subject: string,
  byLevel: ReadonlyMap<number, readonly SynthTrial[]>,
  missing: MissingRule = 'paper',
  seed: number | null = 0,
): LeaderboardSubject {
  const cells = [...byLevel.entries()].map(([level, trials]) => synthCell(level, trials));
  return { subject, seed, cells, fits: [synthFit(cells, missing)], collapse: [], scc: [] };
}
