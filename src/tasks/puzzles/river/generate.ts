import type { TaskInstance } from '../../task.js';
import type { FixedInstanceData, PerLevel, PuzzleContent } from '../common/index.js';
import { solveRiver, type Trip, tripNames } from './rules.js';

export type RiverLevel = readonly [pairs: number, capacity: number];

/** (pairs n, boat capacity k) per level (docs/spec/puzzles.md §1.2); minimum crossings 5, 11, 9, 11, 11, 17. */
export const RIVER_LEVELS: PerLevel<RiverLevel> = [
  [2, 2],
  [3, 2],
  [4, 3],
  [5, 3],
  [7, 4],
  [10, 4],
];

export interface RiverData extends FixedInstanceData {
  pairs: number;
  capacity: number;
  minCrossings: number;
  /** States reached by the BFS that proved solvability and minimality. */
  statesExplored: number;
}
/** Trace: the people on the left bank after each canonical trip. */
export type RiverInstance = TaskInstance<RiverData, string[], Trip[]>;

export function generateRiver([pairs, capacity]: RiverLevel): PuzzleContent<RiverData, string[], Trip[]> {
  const solution = solveRiver(pairs, capacity);
  if (solution.minCrossings === null)
    throw new Error(`river: (${pairs}, ${capacity}) is unsolvable; fix the level table`);
  let left = (1 << (2 * pairs)) - 1;
  const trace = solution.trips.map((load, i) => {
    left = i % 2 === 0 ? left & ~load : left | load;
    return tripNames(left, pairs);
  });
  return {
    data: {
      pairs,
      capacity,
      minCrossings: solution.minCrossings,
      statesExplored: solution.statesExplored,
      generationAttempts: 1,
    },
    trace,
    answer: solution.trips.map((load) => tripNames(load, pairs)),
  };
}
