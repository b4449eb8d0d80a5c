import type { AnyTaskPlugin } from '../task';

/** The nine puzzle families — filled in by the puzzles issue. */
export const puzzleTasks: AnyTaskPlugin[] = [];
