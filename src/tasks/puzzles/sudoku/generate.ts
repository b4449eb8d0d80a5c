import type { PyRandom } from '../../../rng/index.js';
import type { TaskInstance } from '../../task.js';
import type { PerLevel, PuzzleContent } from '../common/index.js';
import { boxRegions, jigsawRegions } from './regions.js';
import { searchSudoku } from './solver.js';

/** A Sudoku level: size, box shape or jigsaw, givens; unique solution only. */
export interface SudokuLevel {
  n: number;
  boxRows: number;
  boxCols: number;
  layout: 'boxes' | 'jigsaw';
  givens: number;
}

/** Sudoku levels (docs/spec/puzzles.md §1.2). */
export const SUDOKU_LEVELS: PerLevel<SudokuLevel> = [
  { n: 4, boxRows: 2, boxCols: 2, layout: 'boxes', givens: 10 },
  { n: 4, boxRows: 2, boxCols: 2, layout: 'boxes', givens: 6 },
  { n: 6, boxRows: 2, boxCols: 3, layout: 'boxes', givens: 20 },
  { n: 6, boxRows: 2, boxCols: 3, layout: 'boxes', givens: 14 },
  { n: 9, boxRows: 3, boxCols: 3, layout: 'boxes', givens: 36 },
  { n: 9, boxRows: 3, boxCols: 3, layout: 'jigsaw', givens: 30 },
];

export interface SudokuData {
  n: number;
  layout: 'boxes' | 'jigsaw';
  /** Box shape for 'boxes'; for 'jigsaw', the box layout the regions were grown from. */
  boxRows: number;
  boxCols: number;
  /** Row-major region ids 0…N−1 (always explicit, also for boxes). */
  regions: number[];
  /** Row-major puzzle, 0 = blank. */
  puzzle: number[];
  /** The unique solution, row-major. */
  solution: number[];
  /** Actual number of givens (recounted, = the level's target). */
  givens: number;
  /** Full grids tried (each: regions for jigsaw, randomised fill, seeded greedy clue removal). */
  attempts: number;
  /** Jigsaw only: region layouts drawn and boundary swaps kept in the final layout. */
  regionLayouts?: number;
  swaps?: number;
}

/** `answer`: the unique solution, row-major. */
export type SudokuInstance = TaskInstance<SudokuData, never, number[]>;

const MAX_ATTEMPTS = 500;
const FILL_NODE_LIMIT = 200;
const FILL_RESTARTS = 10;
const JIGSAW_SWAP_TRIES = 400;

/**
 * A random complete grid: randomised search with restarts (runtimes are heavy-tailed, so many short
 * runs beat one long one); null when every run hits the node limit (some jigsaw layouts have no
 * completion at all).
 */
function randomFill(rng: PyRandom, regions: readonly number[], n: number): number[] | null {
  for (let run = 0; run < FILL_RESTARTS; run++) {
    const empty = new Array<number>(n * n).fill(0);
    const filled = searchSudoku(empty, regions, n, { limit: 1, nodeLimit: FILL_NODE_LIMIT, rng, unitBranching: true });
    if (filled.first !== null) return filled.first;
  }
  return null;
}

const UNIT_BRANCHING_FOR_COUNT = false;

/**
 * docs/spec/puzzles.md §9 recipe: (jigsaw: draw connected regions, rejecting layouts whose randomised fill fails
 * within its restarts) → full grid by randomised MRV backtracking → remove clues in a seeded shuffled
 * order, keeping a removal only if the solution stays unique (count with limit 2), until the target
 * number of givens is reached; if greedy removal stalls above the target, start over with a new grid.
 */
export function generateSudoku(spec: SudokuLevel, rng: PyRandom): PuzzleContent<SudokuData, never, number[]> {
  const { n } = spec;
  let regionLayouts = 0;
  for (let attempts = 1; attempts <= MAX_ATTEMPTS; attempts++) {
    let regions: number[];
    let swaps: number | undefined;
    if (spec.layout === 'jigsaw') {
      const drawn = jigsawRegions(rng, n, spec.boxRows, spec.boxCols, JIGSAW_SWAP_TRIES);
      regionLayouts++;
      regions = drawn.regions;
      swaps = drawn.swaps;
    } else {
      regions = boxRegions(n, spec.boxRows, spec.boxCols);
    }
    const solution = randomFill(rng, regions, n);
    if (solution === null) continue;
    const puzzle = [...solution];
    let givens = n * n;
    const order = rng.shuffle(Array.from({ length: n * n }, (_, i) => i));
    for (const cell of order) {
      if (givens === spec.givens) break;
      const kept = puzzle[cell];
      puzzle[cell] = 0;
      if (searchSudoku(puzzle, regions, n, { limit: 2, unitBranching: UNIT_BRANCHING_FOR_COUNT }).count === 1) givens--;
      else puzzle[cell] = kept;
    }
    if (givens !== spec.givens) continue;
    const data: SudokuData = {
      n,
      layout: spec.layout,
      boxRows: spec.boxRows,
      boxCols: spec.boxCols,
      regions,
      puzzle,
      solution,
      givens: puzzle.filter((v) => v !== 0).length,
      attempts,
    };
    return { data: spec.layout === 'jigsaw' ? { ...data, regionLayouts, swaps } : data, answer: solution };
  }
  throw new Error(`sudoku: no unique ${n}×${n} puzzle with ${spec.givens} givens in ${MAX_ATTEMPTS} attempts`);
}
