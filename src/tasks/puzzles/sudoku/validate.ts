import type { PuzzleOutcome } from '../../outcome.js';
import type { ParseResult } from '../../task.js';
import { collapseOutcome, failOutcome, passOutcome } from '../common/index.js';
import { regionIssues, regionLabel } from './regions.js';

/** Rows as written: each a list of cell values, −1 for a character or entry that is not a digit. */
export interface SudokuAnswer {
  rows: number[][];
}

const cellValue = (entry: unknown): number =>
  typeof entry === 'number' && Number.isInteger(entry) && entry >= 0 && entry <= 99 ? entry : -1;

/**
 * The `grid = [...]` list read into rows: each row is a string of digits (spaces ignored) or a list of
 * integers. A list with one string of N² digits (the whole grid row-major) is also accepted; the validator
 * splits it.
 */
export function readGrid(list: unknown[]): ParseResult<SudokuAnswer> {
  const rows: number[][] = [];
  for (const row of list) {
    if (typeof row === 'string') {
      rows.push([...row.replace(/\s+/g, '')].map((ch) => (ch >= '0' && ch <= '9' ? Number(ch) : -1)));
    } else if (Array.isArray(row)) {
      rows.push(row.map(cellValue));
    } else {
      return {
        ok: false,
        reason: 'malformed answer: every `grid` row must be a string of digits or a list of integers',
      };
    }
  }
  return { ok: true, value: { rows } };
}

export interface SudokuSpec {
  n: number;
  puzzle: readonly number[];
  regions: readonly number[];
}

const at = (cell: number, n: number): string => `(row ${Math.floor(cell / n) + 1}, column ${(cell % n) + 1})`;

/** The answer as N² row-major values, or why its shape is not N×N digits (a malformed structure). */
function shape(answer: SudokuAnswer, n: number): { cells: number[] } | { problem: string } {
  let rows = answer.rows;
  if (rows.length === 1 && rows[0].length === n * n) {
    rows = Array.from({ length: n }, (_, r) => answer.rows[0].slice(r * n, (r + 1) * n));
  }
  if (rows.length !== n) return { problem: `expected ${n} rows, got ${rows.length}` };
  const bad = rows.findIndex((row) => row.length !== n);
  if (bad >= 0) return { problem: `row ${bad + 1} has ${rows[bad].length} cells, expected ${n}` };
  const flat = rows.flat();
  const junk = flat.findIndex((v) => v < 0);
  if (junk >= 0) return { problem: `cell ${at(junk, n)} is not a digit` };
  return { cells: flat };
}

/**
 * The validator of docs/spec/puzzles.md §9 for any N and any region system, collecting every issue: (0) shape — an
 * answer that is not N×N digits is a malformed structure (collapse); (1–2) the instance's region map
 * must be N regions of N cells; (3) every value in 1…N (a blank 0 is an issue: the grid must be complete);
 * (4) every given preserved; (5–7) no repeated digit in any row, column or region. kStar is the 1-based
 * row-major index of the first offending cell (for a repeat, the cell that repeats an earlier one).
 */
export function validateSudoku(spec: SudokuSpec, answer: SudokuAnswer): PuzzleOutcome {
  const { n, puzzle, regions } = spec;
  const shaped = shape(answer, n);
  if ('problem' in shaped) return collapseOutcome([`malformed grid: ${shaped.problem}`]);
  const cells = shaped.cells;
  const partition = regionIssues(regions, n);
  if (partition.length > 0) return failOutcome(partition.map((issue) => `invalid region partition: ${issue}`));
  const issues: string[] = [];
  let first = Number.POSITIVE_INFINITY;
  const flag = (cell: number, issue: string) => {
    issues.push(issue);
    first = Math.min(first, cell);
  };
  cells.forEach((v, cell) => {
    if (v === 0) flag(cell, `cell ${at(cell, n)} is blank`);
    else if (v > n) flag(cell, `cell ${at(cell, n)} holds ${v}, outside 1–${n}`);
  });
  puzzle.forEach((given, cell) => {
    if (given !== 0 && cells[cell] !== given)
      flag(cell, `clue changed at ${at(cell, n)}: given ${given}, answer ${cells[cell]}`);
  });
  const unitCheck = (name: string, members: number[]) => {
    const seen = new Map<number, number>();
    for (const cell of members) {
      const v = cells[cell];
      if (v < 1 || v > n) continue;
      const earlier = seen.get(v);
      if (earlier === undefined) seen.set(v, cell);
      else flag(cell, `${name} repeats digit ${v} at ${at(earlier, n)} and ${at(cell, n)}`);
    }
  };
  for (let r = 0; r < n; r++)
    unitCheck(
      `row ${r + 1}`,
      Array.from({ length: n }, (_, c) => r * n + c),
    );
  for (let c = 0; c < n; c++)
    unitCheck(
      `column ${c + 1}`,
      Array.from({ length: n }, (_, r) => r * n + c),
    );
  for (let g = 0; g < n; g++)
    unitCheck(
      `region ${regionLabel(g)}`,
      regions.flatMap((id, i) => (id === g ? [i] : [])),
    );
  return issues.length === 0 ? passOutcome() : failOutcome(issues, first + 1);
}
