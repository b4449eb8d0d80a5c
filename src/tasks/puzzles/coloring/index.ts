export { coloringTask } from './plugin.js';
