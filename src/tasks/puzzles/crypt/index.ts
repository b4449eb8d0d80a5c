export { cryptTask } from './plugin.js';
