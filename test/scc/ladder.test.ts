import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isPrecise, LadderSearch, refinementMidpoint, roundHalfEven } from '../../src/assays/scc/ladder.js';
import { targetRange } from '../../src/tasks/ladder-targets.js';

interface LadderCase {
  config: { initial_length: number; max_length: number; step_fraction: number };
  oracle: { type: 'threshold'; pass_if_center_le: number } | { type: 'scripted'; pass_sequence: boolean[] };
  expected: {
    cc: number;
    cc_lower_bound: number;
    cc_upper_bound: number | null;
    bounded: boolean;
    cc_error_bar: { lower: number; upper: number };
  };
  path: [string, number, [number, number]][];
  differs_with_round_half_up?: unknown;
}

const fixture = JSON.parse(readFileSync(new URL('../../fixtures/scc/ladder_cases.json', import.meta.url), 'utf8')) as {
  cases: LadderCase[];
};

function runCase(c: LadderCase) {
  const search = new LadderSearch({
    initialLength: c.config.initial_length,
    maxLength: c.config.max_length,
    stepFraction: c.config.step_fraction,
  });
  const path: [string, number, [number, number]][] = [];
  let script = 0;
  for (let step = search.next(); step; step = search.next()) {
    const { low, high } = targetRange(step.center, 0.2);
    path.push([step.phase, step.center, [low, high]]);
    const passed =
      c.oracle.type === 'threshold'
        ? step.center <= c.oracle.pass_if_center_le
        : (c.oracle.pass_sequence[script++] ?? false);
    search.record(passed);
  }
  return { path, result: search.result() };
}

describe('SCC ladder (ladder_cases.json)', () => {
  it('has the 1,438 golden cases', () => {
    expect(fixture.cases).toHaveLength(1438);
    expect(fixture.cases.filter((c) => c.differs_with_round_half_up)).toHaveLength(105);
  });

  it('reproduces every path, cc, bound, bounded flag and error bar', () => {
    const failures: string[] = [];
    for (const [i, c] of fixture.cases.entries()) {
      const { path, result } = runCase(c);
      const got = {
        cc: result.cc,
        cc_lower_bound: result.ccLower,
        cc_upper_bound: result.ccUpper,
        bounded: result.bounded,
        cc_error_bar: result.errorBar,
      };
      try {
        expect(path).toEqual(c.path);
        expect(got).toEqual(c.expected);
      } catch {
        failures.push(`case ${i}: ${JSON.stringify(c.oracle)} ${JSON.stringify(c.config)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('rounds refinement midpoints half to even, as Python', () => {
    expect(roundHalfEven(2.5)).toBe(2);
    expect(roundHalfEven(3.5)).toBe(4);
    expect(roundHalfEven(7)).toBe(7);
    expect(refinementMidpoint(5, 10)).toBe(8);
    expect(refinementMidpoint(5, 6)).toBe(6);
    expect(isPrecise(96, 104, 0.1)).toBe(true);
    expect(isPrecise(64, 128, 0.1)).toBe(false);
  });
});
