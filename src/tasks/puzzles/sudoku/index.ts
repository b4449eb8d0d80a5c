import type { AnyTaskPlugin } from '../../task';

/** Not implemented yet (puzzles issue); the registry skips a null plugin. */
export const sudokuTask: AnyTaskPlugin | null = null;
