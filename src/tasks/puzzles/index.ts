export { definePuzzle, type PuzzleDeclaration, type PuzzleTask } from './common/index.js';
export { puzzleTasks } from './families.js';
