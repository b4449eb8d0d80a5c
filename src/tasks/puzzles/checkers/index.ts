export { checkersTask } from './plugin.js';
