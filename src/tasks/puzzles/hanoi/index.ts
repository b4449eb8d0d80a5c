export { hanoiTask } from './plugin.js';
