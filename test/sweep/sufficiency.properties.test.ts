import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitRetentionSweep } from '../../src/assays/sweep/fit-retention.js';
import { summarizeCell } from '../../src/assays/sweep/summarize-cell.js';
import type { TrialRecord } from '../../src/schema/trial.js';
import { CCB_OUTCOME_KINDS, type CcbOutcomeKind, isMissingKind, type MissingRule } from '../../src/tasks/outcome.js';
import { resolveTask } from '../../src/tasks/registry.js';

// Issue 40, Deliver 3, as properties over every CCB outcome mix: a cell is insufficient exactly when the trials its
// rule sets aside are more than maxMissingFraction of it (or none was answered), and a fit over such a cell never
// reports an estimate — so moving trials from a counted kind into a set-aside kind can make a cell insufficient,
// never sufficient, and never lets p_d pass on what was left.

const d2 = resolveTask('d2');

const trial = (kind: CcbOutcomeKind, index: number): TrialRecord => ({
  task: 'd2',
  level: 5,
  seed: 50_000 + index,
  trialIndex: 0,
  profile: 'official',
  variant: 'standard',
  outcome: { family: 'ccb', kind, answerCorrect: kind === 'correct', kStar: -1, tfbc: false, issues: [] },
  finishReason: 'stop',
  usage: null,
  latencyMs: 0,
  cacheHit: false,
  attempts: 1,
});

const cellOf = (kinds: readonly CcbOutcomeKind[], maxMissingFraction: number, missing: MissingRule, level = 5) =>
  summarizeCell(
    {
      project: 'd2',
      task: d2,
      level,
      profile: 'official',
      variant: 'standard',
      seedOffset: 0,
      maxMissingFraction,
      missing,
    },
    kinds.map((kind, i) => ({ ...trial(kind, i), level })),
  );

const mix = fc.array(fc.constantFrom(...CCB_OUTCOME_KINDS), { minLength: 1, maxLength: 60 });
const fraction = fc.double({ min: 0, max: 1, noNaN: true });
const rule = fc.constantFrom<MissingRule>('paper', 'release');

describe('sufficiency counts set-aside data (properties)', () => {
  it('a cell is insufficient exactly when its set-aside share is above the limit, or nothing was answered', () => {
    fc.assert(
      fc.property(mix, fraction, rule, (kinds, max, missing) => {
        const cell = cellOf(kinds, max, missing);
        const setAside = kinds.filter((k) => isMissingKind('ccb', k, missing)).length;
        const answered = kinds.filter((k) => k !== 'api' && k !== 'budget').length;
        expect(cell.setAside).toBe(setAside);
        expect(cell.status).toBe(answered === 0 || setAside / kinds.length > max ? 'insufficient' : 'ok');
      }),
    );
  });

  it('turning a counted trial into Format or Truncation never makes an insufficient cell sufficient', () => {
    fc.assert(
      fc.property(
        mix,
        fraction,
        fc.nat(),
        fc.constantFrom<CcbOutcomeKind>('format', 'truncation'),
        (kinds, max, at, to) => {
          const counted = kinds.map((k, i) => [k, i] as const).filter(([k]) => !isMissingKind('ccb', k, 'paper'));
          fc.pre(counted.length > 0);
          const changed = [...kinds];
          changed[counted[at % counted.length][1]] = to;
          const before = cellOf(kinds, max, 'paper');
          const after = cellOf(changed, max, 'paper');
          if (before.status === 'insufficient') expect(after.status).toBe('insufficient');
        },
      ),
    );
  });

  it('a fit with an insufficient cell is insufficient, whatever p_d its counted trials would give', () => {
    fc.assert(
      fc.property(fc.array(mix, { minLength: 1, maxLength: 6 }), fraction, rule, (mixes, max, missing) => {
        const cells = mixes.map((kinds, i) => cellOf(kinds, max, missing, 5 * (i + 1)));
        const fit = fitRetentionSweep(cells, { project: 'd2', missing, seed: 1 });
        if (cells.some((c) => c.status === 'insufficient')) expect(fit.status).toBe('insufficient');
        const total = mixes.flat().length;
        const setAside = mixes.flat().filter((k) => isMissingKind('ccb', k, missing)).length;
        expect(fit.setAsideRate).toBeCloseTo(setAside / total, 12);
      }),
      { numRuns: 60 },
    );
  });
});
