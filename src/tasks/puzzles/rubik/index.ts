export { rubikTask } from './plugin.js';
