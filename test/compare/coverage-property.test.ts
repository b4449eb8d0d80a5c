import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareRuns } from '../../src/compare/compare.js';
import { levelsOf } from '../../src/compare/levels.js';
import { comparisonSchema, type MetricComparison, type NotCompared } from '../../src/compare/schema.js';
import type { Baseline } from '../../src/schema/baseline.js';
import { CCB_LEVELS, ladder, puzzle, run, STOP, sweep } from './runs.js';

// For any baseline and any candidate made from it by dropping or altering records, every baseline record in scope
// is accounted for exactly once — a fit's levels partitioned between its p_d row and its not-compared entries — and
// the comparison passes exactly when it has neither a regression nor a record it did not compare.

const sweepArb = fc.record({
  levels: fc.subarray(CCB_LEVELS, { minLength: 1 }),
  n: fc.integer({ min: 4, max: 40 }),
  pd: fc.double({ min: 0.8, max: 0.995, noNaN: true }),
  missing: fc.array(fc.nat({ max: 6 }), { minLength: 10, maxLength: 10 }),
});

const baselineArb = fc
  .record({
    d1: fc.option(sweepArb, { nil: undefined }),
    d2: fc.option(sweepArb, { nil: undefined }),
    puzzle: fc.boolean(),
    scc: fc.boolean(),
  })
  .filter((r) => r.d1 !== undefined || r.d2 !== undefined || r.puzzle || r.scc)
  .map((r) =>
    run(
      'base',
      ...(['d1', 'd2'] as const).flatMap((p) => {
        const s = r[p];
        return s ? [sweep(p, { ...s, missing: s.missing.map((m) => Math.min(m, s.n)) })] : [];
      }),
      ...(r.puzzle ? [puzzle('puzzles', 'hanoi')] : []),
      ...(r.scc ? [ladder('scc')] : []),
    ),
  );

const OPS = ['drop-fit', 'drop-cell', 'drop-level', 'starve', 'half', 'stop', 'flat', 'rule', 'worse', 'rename', 'add'];
const opArb = fc.record({ kind: fc.constantFrom(...OPS), at: fc.nat() });

type Fit = Baseline['fits'][number];
type Cell = Baseline['cells'][number];
const ofFit = (f: Fit) => (c: Cell) => c.project === f.project && c.task === f.task && c.variant === f.variant;

/** Sets a cell's answered and correct counts, and the fit's count at that level to match. */
function setCell(b: Baseline, cell: Cell, answered: number, missing: number) {
  cell.answered = answered;
  cell.successes = Math.min(cell.successes, answered);
  if (missing > 0) cell.missing = missing;
  for (const f of b.fits.filter((x) => ofFit(x)(cell))) {
    f.counts = f.counts.map((c) => (c.depth === cell.level ? { ...c, n: answered, correct: cell.successes } : c));
  }
}

function apply(b: Baseline, op: { kind: string; at: number }): void {
  const pick = <T>(xs: T[]) => (xs.length === 0 ? undefined : xs[op.at % xs.length]);
  const fit = pick(b.fits);
  const cell = pick(b.cells);
  switch (op.kind) {
    case 'drop-fit':
      if (fit) b.fits.splice(b.fits.indexOf(fit), 1);
      break;
    case 'drop-cell':
      if (cell) b.cells.splice(b.cells.indexOf(cell), 1);
      break;
    case 'drop-level': {
      const level = fit && pick(fit.counts)?.depth;
      if (!fit || level === undefined) break;
      fit.counts = fit.counts.filter((c) => c.depth !== level);
      b.cells = b.cells.filter((c) => !(ofFit(fit)(c) && c.level === level));
      break;
    }
    case 'starve':
      if (cell) setCell(b, cell, 0, cell.answered + (cell.missing ?? 0));
      break;
    case 'half':
      if (cell) {
        const n = cell.answered + (cell.missing ?? 0);
        setCell(b, cell, Math.floor(n / 2), n - Math.floor(n / 2));
      }
      break;
    case 'stop':
      for (const s of b.scc) Object.assign(s, { cc: 32, ccLower: 32, ccUpper: null, bounded: false, stopped: STOP });
      break;
    case 'flat':
      for (const c of b.collapse) Object.assign(c, { levelIndex: null, ci95: null });
      break;
    case 'rule':
      if (fit) fit.missing = fit.missing === 'paper' ? 'release' : 'paper';
      break;
    case 'worse':
      if (fit) {
        fit.counts = fit.counts.map((c) => ({ ...c, correct: Math.floor(c.correct / 3) }));
        for (const c of b.cells.filter(ofFit(fit))) c.successes = Math.floor(c.successes / 3);
      }
      break;
    case 'rename':
      if (fit) for (const r of [fit, ...b.cells.filter(ofFit(fit))]) r.project = `${r.project}-renamed`;
      break;
    case 'add':
      Object.assign(b, {
        fits: [...b.fits, ...(sweep('d3').fits ?? [])],
        cells: [...b.cells, ...(sweep('d3').cells ?? [])],
      });
      break;
  }
}

const projectsOf = (b: Baseline) =>
  [...new Set([...b.fits, ...b.cells, ...b.scc, ...b.collapse].map((r) => r.project))].sort();

type Entry = MetricComparison | NotCompared;

describe('compare covers every in-scope baseline record exactly once (property)', () => {
  it('holds for random baselines and candidates made from them', () => {
    fc.assert(
      fc.property(
        baselineArb,
        fc.array(opArb, { maxLength: 4 }),
        fc.option(fc.nat(), { nil: undefined }),
        (base, ops, onlyAt) => {
          const cand: Baseline = { ...structuredClone(base), name: 'cand' };
          for (const op of ops) apply(cand, op);
          const projects = projectsOf(base);
          const only = onlyAt === undefined ? undefined : [projects[onlyAt % projects.length]];
          const c = compareRuns(base, cand, { resamples: 20, only });
          expect(comparisonSchema.parse(c)).toEqual(c);

          const inScope = (p: string) => only === undefined || only.includes(p);
          const entries: Entry[] = [...c.metrics, ...c.notCompared];
          const claimed = new Set<Entry>();
          const take = (match: (e: Entry) => boolean) => {
            const found = entries.filter(match);
            for (const e of found) claimed.add(e);
            return found;
          };
          for (const f of base.fits.filter((x) => inScope(x.project))) {
            const same = (e: Entry) => e.project === f.project && e.task === f.task && e.variant === f.variant;
            const pd = take((e) => e.metric === 'p_d' && same(e));
            expect(pd.length).toBeGreaterThanOrEqual(1);
            expect(pd.filter((e) => !('kind' in e)).length).toBeLessThanOrEqual(1);
            const levels = pd.flatMap((e) => e.levels ?? []).sort((x, y) => x - y);
            expect(levels).toEqual(levelsOf(f.counts));
            const compared = pd.some((e) => !('kind' in e));
            expect(take((e) => e.metric === 'tfbc_rate' && same(e)).length).toBe(
              compared && f.tfbcRate !== null ? 1 : 0,
            );
          }
          for (const b of base.cells.filter((x) => inScope(x.project))) {
            const found = take(
              (e) =>
                e.metric === 'accuracy' &&
                e.project === b.project &&
                e.task === b.task &&
                e.variant === b.variant &&
                e.level === b.level,
            );
            expect(found).toHaveLength(1);
          }
          for (const [metric, records] of [
            ['counting_capacity', base.scc],
            ['collapse_threshold', base.collapse],
          ] as const) {
            for (const b of records.filter((x) => inScope(x.project))) {
              expect(take((e) => e.metric === metric && e.project === b.project && e.task === b.task)).toHaveLength(1);
            }
          }
          // nothing else: no row for a record out of scope, or for a candidate-only record
          expect(entries.filter((e) => !claimed.has(e))).toEqual([]);
          expect(c.regressions).toEqual(c.metrics.filter((m) => m.regression));
          expect(c.passed).toBe(c.notCompared.length === 0 && c.regressions.length === 0);
          // a run against itself passes, unless the baseline itself holds a record that says nothing
          const n = (x: Cell) => x.answered + (x.missing ?? 0);
          const sound = base.cells.every((x) => x.answered > 0 && (x.missing ?? 0) <= 0.2 * n(x));
          if (ops.length === 0 && sound) expect(c.passed).toBe(true);
        },
      ),
      { numRuns: 150, seed: 20260101 },
    );
  });
});
