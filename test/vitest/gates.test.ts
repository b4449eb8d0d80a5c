import { describe, expect, it } from 'vitest';
import type { ProjectGates } from '../../src/config/schema.js';
import { undecidedNote } from '../../src/gates/undecided.js';
import {
  checkCollapseNoEarlierThan,
  checkCountingCapacityAtLeast,
  checkHorizonAtLeast,
  checkRetentionAtLeast,
  checkTfbcRateAtMost,
  evaluateGates,
} from '../../src/vitest/index.js';
import { fixtureReport } from '../report/html/support.js';
import { retentionFit } from '../support/records.js';

const ALL: ProjectGates = {
  minRetention: { value: 0.95, mode: 'advisory', evidence: 'lower' },
  minHorizon: 10,
  maxTfbcRate: 0.1,
  collapseNoEarlierThan: 3,
  minCountingCapacity: 64,
};

describe('evaluateGates', () => {
  it('runs each configured gate on the records of its kind only, in the order of the gate list', () => {
    const fit = retentionFit();
    const collapse = fixtureReport().collapse[0];
    const scc = { kind: 'scc' as const, task: 'count', cc: 96, ccLower: 88, ccUpper: 104, bounded: true };

    const onFit = evaluateGates('d2', fit, ALL);
    expect(onFit.map((g) => [g.gate, g.mode])).toEqual([
      ['minRetention', 'advisory'],
      ['minHorizon', 'hard'],
      ['maxTfbcRate', 'hard'],
    ]);
    // The object form's evidence reaches the retention check; the other gates take the bare value.
    // (the fixture's interval [0.944, 0.957] holds 0.95: the line adds that this sample cannot decide it)
    expect(undecidedNote('minRetention', fit, 0.95)).toMatch(/^undecided at this sample size: p_d 0\.951/);
    expect(onFit.map((g) => g.message.replace(/^gate d2\.\w+ \w+ \((hard|advisory)\): /, ''))).toEqual([
      `${checkRetentionAtLeast(fit, 0.95, 'lower').message}; ${undecidedNote('minRetention', fit, 0.95)}`,
      checkHorizonAtLeast(fit, 10).message,
      checkTfbcRateAtMost(fit, 0.1).message,
    ]);

    const onCollapse = evaluateGates('puzzles', collapse, ALL);
    expect(onCollapse.map((g) => [g.gate, g.task, g.passed])).toEqual([
      ['collapseNoEarlierThan', collapse.task, checkCollapseNoEarlierThan(collapse, 3).pass],
    ]);

    const onScc = evaluateGates('scc', scc, ALL);
    expect(onScc).toEqual([
      {
        project: 'scc',
        task: 'count',
        gate: 'minCountingCapacity',
        mode: 'hard',
        threshold: 64,
        estimate: 96,
        ci95: null,
        passed: true,
        message: `gate scc.minCountingCapacity passed (hard): ${checkCountingCapacityAtLeast(scc, 64).message}`,
      },
    ]);
  });

  it('gives nothing without gates, or when no configured gate reads the record', () => {
    expect(evaluateGates('d2', retentionFit(), undefined)).toEqual([]);
    expect(evaluateGates('d2', retentionFit(), { collapseNoEarlierThan: 3, minCountingCapacity: 1 })).toEqual([]);
  });
});

describe('gatesFor: the gates of a per-subject project', () => {
  it("applies the standard project's gates to every <project>@<label>, the exact key winning gate by gate", async () => {
    const { gatesFor } = await import('../../src/gates/index.js');
    const gates = {
      d2: { minRetention: 0.95, maxTfbcRate: 0.2 },
      'd2@gpt-4o': { minRetention: 0.99 },
      d3: { minHorizon: 4 },
    };
    expect(gatesFor(gates, 'd2')).toEqual({ minRetention: 0.95, maxTfbcRate: 0.2 });
    expect(gatesFor(gates, 'd2@gpt-4o-mini')).toEqual({ minRetention: 0.95, maxTfbcRate: 0.2 });
    expect(gatesFor(gates, 'd2@gpt-4o')).toEqual({ minRetention: 0.99, maxTfbcRate: 0.2 });
    expect(gatesFor(gates, 'd3@x')).toEqual({ minHorizon: 4 });
    expect(gatesFor(gates, 'd1@x')).toBeUndefined();
    const fit = retentionFit({ project: 'd2', task: 'd2', pd: 0.97 });
    const results = evaluateGates('d2@gpt-4o', fit, gatesFor(gates, 'd2@gpt-4o'));
    expect(results.find((g) => g.gate === 'minRetention')).toMatchObject({ project: 'd2@gpt-4o', passed: false });
  });
});
