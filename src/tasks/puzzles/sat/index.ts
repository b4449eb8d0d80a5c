export { satTask } from './plugin.js';
