import { finalLineFormat } from '../common/index.js';
import type { SudokuInstance } from './generate.js';
import { regionLabel } from './regions.js';

const rowsOf = <T>(cells: readonly T[], n: number): T[][] =>
  Array.from({ length: n }, (_, r) => cells.slice(r * n, (r + 1) * n));

/**
 * One template for every level (complexity-invariant): the region map is always given explicitly, for
 * box layouts as well as jigsaws, so only N, the puzzle and the map change between levels.
 */
export function renderSudoku({ data }: SudokuInstance): string {
  const { n } = data;
  const example = Array.from({ length: 2 }, (_, r) =>
    Array.from({ length: n }, (_, c) => ((c + r * 2) % n) + 1).join(''),
  );
  return [
    `Complete the ${n}×${n} Sudoku below.`,
    '',
    'Rules:',
    `- Fill every blank cell with a digit from 1 to ${n}.`,
    `- Every row, every column and every region must contain each digit 1–${n} exactly once.`,
    `- The regions are given by the region map: cells with the same letter form one region (${n} regions of ` +
      `${n} cells).`,
    '- The given digits must not be changed. The puzzle has exactly one solution.',
    '',
    `Puzzle (${n} rows of ${n} digits, 0 = blank):`,
    ...rowsOf(data.puzzle, n).map((row) => row.join('')),
    '',
    `Region map (${n} rows of ${n} letters):`,
    ...rowsOf(data.regions, n).map((row) => row.map(regionLabel).join('')),
    '',
    ...finalLineFormat(
      'grid',
      `["${example[0]}", "${example[1]}", ...]`,
      `a strict JSON list of the ${n} completed rows, top to bottom, each a string of ${n} digits`,
    ),
  ].join('\n');
}

/** The grid as one JSON list of row strings, `["1234", "3412", …]`. */
export const writeGrid = (cells: readonly number[], { data }: SudokuInstance): string =>
  JSON.stringify(rowsOf(cells, data.n).map((row) => row.join('')));
