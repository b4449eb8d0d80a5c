import { describe, expect, it } from 'vitest';
import { PyRandom } from '../../../src/rng/index.js';
import { SUDOKU_LEVELS, type SudokuInstance } from '../../../src/tasks/puzzles/sudoku/generate.js';
import { sudokuTask } from '../../../src/tasks/puzzles/sudoku/index.js';
import { boxRegions, regionConnected, regionIssues } from '../../../src/tasks/puzzles/sudoku/regions.js';
import { searchSudoku } from '../../../src/tasks/puzzles/sudoku/solver.js';
import { validateSudoku } from '../../../src/tasks/puzzles/sudoku/validate.js';
import { assertGarbageClassified, simulatedPassRate } from '../../support/puzzle-contract.js';

const LEVELS = [1, 2, 3, 4, 5, 6];
const SEEDS = [1, 2, 3];
const make = (level: number, seed: number): SudokuInstance =>
  sudokuTask.generate(new PyRandom(seed), level, { seed }) as SudokuInstance;
/** The `grid = [...]` answer line for `cells` (row-major) on `instance`'s grid. */
const gridLine = (instance: SudokuInstance, cells: number[]) =>
  sudokuTask.canonicalResponse({ ...instance, answer: cells });
const digits = (s: string) => [...s].map(Number);

const GRID1 = '003020600900305001001806400008102900700000008006708200002609500800203009005010300';
const GRID1_SOLUTION = '483921657967345821251876493548132976729564138136798245372689514814253769695417382';

describe('sudoku solver and generator', () => {
  it("Norvig's grid1 has exactly one solution, the known one", () => {
    const result = searchSudoku(digits(GRID1), boxRegions(9, 3, 3), 9, { limit: 10 });
    expect(result.count).toBe(1);
    expect(result.first?.join('')).toBe(GRID1_SOLUTION);
    const unit = searchSudoku(digits(GRID1), boxRegions(9, 3, 3), 9, { limit: 10, unitBranching: true });
    expect([unit.count, unit.first?.join('')]).toEqual([1, GRID1_SOLUTION]);
    const spec = { n: 9, puzzle: digits(GRID1), regions: boxRegions(9, 3, 3) };
    expect(validateSudoku(spec, { rows: [digits(GRID1_SOLUTION)] }).kind).toBe('pass');
  });

  it('counts several solutions when givens are removed, and none for contradictory givens', () => {
    const sparse = digits(GRID1_SOLUTION).map((v, i) => (i < 18 ? 0 : v));
    expect(searchSudoku(sparse, boxRegions(9, 3, 3), 9, { limit: 100 }).count).toBeGreaterThan(1);
    const clash = digits(GRID1);
    clash[0] = 6; // row 1 already holds a 6
    expect(searchSudoku(clash, boxRegions(9, 3, 3), 9).count).toBe(0);
    expect(searchSudoku(new Array(16).fill(0), boxRegions(4, 2, 2), 4, { limit: 1000 }).count).toBe(288);
  });

  it('box layouts: 4×4 → 2×2, 6×6 → 2×3, 9×9 → 3×3', () => {
    expect(boxRegions(4, 2, 2).join('')).toBe('0011001122332233');
    expect(boxRegions(6, 2, 3).slice(0, 12).join('')).toBe('000111000111');
    expect(regionIssues(boxRegions(6, 2, 3), 6)).toEqual([]);
    expect(() => boxRegions(6, 2, 2)).toThrow(/do not tile/);
  });

  it('follows the level table: unique puzzles with exactly the target givens, regions a valid partition', () => {
    for (const level of LEVELS) {
      const spec = SUDOKU_LEVELS[level - 1];
      for (const seed of SEEDS) {
        const { data } = make(level, seed);
        expect([data.n, data.layout, data.givens]).toEqual([spec.n, spec.layout, spec.givens]);
        expect(data.puzzle.filter((v) => v !== 0)).toHaveLength(spec.givens);
        expect(data.attempts).toBeGreaterThanOrEqual(1);
        expect(regionIssues(data.regions, data.n)).toEqual([]);
        for (let g = 0; g < data.n; g++) expect(regionConnected(data.regions, data.n, g)).toBe(true);
        const search = searchSudoku(data.puzzle, data.regions, data.n, { limit: 2 });
        expect(search.count).toBe(1);
        expect(search.first).toEqual(data.solution);
        expect(data.puzzle.every((v, i) => v === 0 || data.solution[i] === v)).toBe(true);
        if (spec.layout === 'jigsaw') {
          expect(data.regions).not.toEqual(boxRegions(9, 3, 3));
          expect(data.swaps).toBeGreaterThan(0);
        } else {
          expect(data.regions).toEqual(boxRegions(spec.n, spec.boxRows, spec.boxCols));
        }
      }
    }
  });

  // Generation speed is measured in bench/ (BENCHMARKS.md), not asserted here.
  it('is deterministic per seed', () => {
    expect(JSON.stringify(make(6, 5))).toBe(JSON.stringify(make(6, 5)));
  });
});

describe('sudoku grading', () => {
  it('collapses the ways a model declares a Sudoku unsolvable', () => {
    for (const level of LEVELS) {
      for (const seed of SEEDS) {
        const instance = make(level, seed);
        expect(sudokuTask.grade(instance, 'This Sudoku is unsolvable.').kind).toBe('collapse');
        expect(sudokuTask.grade(instance, 'No valid solution.\ngrid = []').kind).toBe('collapse');
      }
    }
  });

  it('fails a changed clue, and the row/column/region repeats it causes, with kStar at the first bad cell', () => {
    for (const level of LEVELS) {
      const instance = make(level, 4);
      const { n, puzzle } = instance.data;
      const given = puzzle.findIndex((v) => v !== 0);
      const cells = [...instance.answer];
      cells[given] = (cells[given] % n) + 1;
      const outcome = sudokuTask.grade(instance, gridLine(instance, cells));
      expect(outcome.kind).toBe('fail');
      const where = `(row ${Math.floor(given / n) + 1}, column ${(given % n) + 1})`;
      expect(outcome.issues[0]).toBe(`clue changed at ${where}: given ${puzzle[given]}, answer ${cells[given]}`);
      expect(outcome.issues.some((i) => /^row \d+ repeats digit/.test(i))).toBe(true);
      expect(outcome.issues.some((i) => /^column \d+ repeats digit/.test(i))).toBe(true);
      expect(outcome.issues.some((i) => /^region [A-I] repeats digit/.test(i))).toBe(true);
      expect(outcome.kStar).toBeLessThanOrEqual(given + 1);
    }
  });

  it('fails a region duplicate that rows and columns do not see (jigsaw validated by its region map)', () => {
    // a Latin square valid by rows and columns is not a Sudoku: its 2×2 boxes repeat digits
    const latin = digits('1234234134124123');
    const spec = { n: 4, puzzle: new Array(16).fill(0), regions: boxRegions(4, 2, 2) };
    const outcome = validateSudoku(spec, { rows: [latin] });
    expect(outcome.kind).toBe('fail');
    expect(outcome.issues.every((i) => i.startsWith('region '))).toBe(true);
    // the same square under a region map whose regions are its rows passes (regions come from the map)
    const bands = { ...spec, regions: digits('0000111122223333') };
    expect(validateSudoku(bands, { rows: [latin] }).kind).toBe('pass');
  });

  it('checks the region partition: N regions of N cells', () => {
    expect(regionIssues(digits('0000111122223330'), 4)).toEqual([
      'region A has 5 cells, not 4',
      'region D has 3 cells, not 4',
    ]);
    expect(regionIssues(digits('000011112222'), 4)).toEqual(['the region map has 12 cells, not 16']);
    expect(regionIssues(digits('0000111122224444'), 4)).toEqual(['region id 4 is outside 0–3']);
    const bad = { n: 4, puzzle: new Array(16).fill(0), regions: digits('0000111122223330') };
    const outcome = validateSudoku(bad, { rows: [digits('1234341221434321')] });
    expect(outcome.kind).toBe('fail');
    expect(outcome.issues[0]).toMatch(/^invalid region partition/);
  });

  it('fails blanks and out-of-range digits; collapses malformed shapes', () => {
    const instance = make(3, 1);
    const blank = instance.answer.map((v, i) => (i === 7 && instance.data.puzzle[i] === 0 ? 0 : v));
    if (instance.data.puzzle[7] === 0) {
      expect(sudokuTask.grade(instance, gridLine(instance, blank)).issues).toContain('cell (row 2, column 2) is blank');
    }
    const seven = instance.answer.map((v, i) => (i === 0 ? 7 : v));
    expect(sudokuTask.grade(instance, gridLine(instance, seven)).issues.join('\n')).toMatch(/holds 7, outside 1–6/);
    const rows = JSON.parse(gridLine(instance, instance.answer).slice('grid = '.length)) as string[];
    expect(sudokuTask.grade(instance, `grid = ${JSON.stringify(rows.slice(1))}`).kind).toBe('collapse');
    expect(sudokuTask.grade(instance, `grid = ${JSON.stringify([rows[0].slice(1), ...rows.slice(1)])}`).kind).toBe(
      'collapse',
    );
    expect(
      sudokuTask.grade(instance, `grid = ${JSON.stringify([`x${rows[0].slice(1)}`, ...rows.slice(1)])}`).kind,
    ).toBe('collapse');
    // accepted variants: one row-major string, rows as integer lists, spaces inside rows
    expect(sudokuTask.grade(instance, `grid = ["${instance.answer.join('')}"]`).kind).toBe('pass');
    const lists = rows.map((row) => [...row].map(Number));
    expect(sudokuTask.grade(instance, `grid = ${JSON.stringify(lists)}`).kind).toBe('pass');
    const spaced = rows.map((row) => [...row].join(' '));
    expect(sudokuTask.grade(instance, `grid = ${JSON.stringify(spaced)}`).kind).toBe('pass');
  });

  it('never throws on garbage and always classifies it', () => {
    const instance = make(6, 1);
    assertGarbageClassified(sudokuTask, instance, [
      'grid = ',
      'grid',
      '=',
      '[',
      ']',
      '"123456789"',
      '"12"',
      ',',
      '"',
      '[1,2]',
      'null',
      '```',
    ]);
  });

  it('simulate: retention 1 passes; with retention 0.97 the pass rate falls from L1 to L6', () => {
    const rate = (level: number, retention: number) =>
      simulatedPassRate(sudokuTask, level, retention, { samples: 30, rngSeedBase: 3 });
    expect(rate(5, 1)).toBe(1);
    expect(rate(1, 0.97)).toBeGreaterThan(rate(6, 0.97));
  });

  it('knob (blank cells) and budgets grow with the level; the prompt gives puzzle and region map', () => {
    const knobs = LEVELS.map((level) => sudokuTask.levels.knob?.(level) ?? 0);
    expect(knobs).toEqual([6, 10, 16, 22, 45, 51]);
    const budgets = LEVELS.map((level) => sudokuTask.maxOutputTokens(level, 'per-level'));
    for (let i = 1; i < budgets.length; i++) expect(budgets[i]).toBeGreaterThan(budgets[i - 1]);
    const user = sudokuTask.render(make(6, 1)).user;
    expect(user).toContain('Region map (9 rows of 9 letters):');
    expect(user).toContain('grid = [');
  });
});
