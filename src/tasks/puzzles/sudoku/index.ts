export { sudokuTask } from './plugin.js';
