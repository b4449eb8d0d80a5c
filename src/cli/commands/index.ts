export type { RegisterCommand } from '../command.js';
export { commands, type LazyCommand } from './list.js';
