export { riverTask } from './plugin.js';
