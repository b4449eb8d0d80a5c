import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { depthCounts } from '../../src/assays/sweep/fit-retention.js';
import { summarizeCell } from '../../src/assays/sweep/summarize-cell.js';
import type { TrialRecord } from '../../src/schema/trial.js';
import { countedSuccess, OUTCOME_RECORDS, type TrialOutcome } from '../../src/tasks/outcome.js';
import { resolveTask } from '../../src/tasks/registry.js';

/** The one missing-data rule, seen from a trial (countedSuccess) and from a cell tally (depthCounts). */
const ccbKinds = OUTCOME_RECORDS.ccb.kinds;
const outcome = (kind: (typeof ccbKinds)[number]): TrialOutcome => ({
  family: 'ccb',
  kind,
  answerCorrect: kind === 'correct',
  kStar: -1,
  tfbc: false,
  issues: [],
});
const trial = (kind: (typeof ccbKinds)[number], i: number): TrialRecord => ({
  task: 'd2',
  level: 5,
  seed: i,
  trialIndex: 0,
  profile: 'official',
  variant: 'standard',
  outcome: outcome(kind),
  finishReason: 'stop',
  usage: null,
  latencyMs: 0,
  attempts: 1,
  cacheHit: false,
});

describe('the missing-data rule', () => {
  it("'paper' sets Format and Truncation aside with API and budget; 'release' only API and budget", () => {
    expect(ccbKinds.map((k) => countedSuccess(outcome(k), 'paper'))).toEqual([
      true,
      false,
      false,
      null,
      null,
      null,
      null,
    ]);
    expect(ccbKinds.map((k) => countedSuccess(outcome(k), 'release'))).toEqual([
      true,
      false,
      false,
      false,
      false,
      null,
      null,
    ]);
  });

  it('a cell tally counts exactly the trials the per-trial rule counts', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...ccbKinds), { maxLength: 40 }),
        fc.constantFrom('paper', 'release'),
        (kinds, rule) => {
          const records = kinds.map(trial);
          const cell = summarizeCell(
            {
              project: 'd2',
              task: resolveTask('d2'),
              level: 5,
              profile: 'official',
              variant: 'standard',
              seedOffset: 0,
              maxMissingFraction: 1,
            },
            records,
          );
          const perTrial = records.map((r) => countedSuccess(r.outcome, rule)).filter((c) => c !== null);
          expect(depthCounts([cell], rule)).toEqual([
            { depth: 5, correct: perTrial.filter(Boolean).length, n: perTrial.length },
          ]);
        },
      ),
    );
  });
});
