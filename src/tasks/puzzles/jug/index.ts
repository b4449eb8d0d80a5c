export { jugTask } from './plugin.js';
