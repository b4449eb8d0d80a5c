export type { RegisterCommand } from '../command.js';
export { commands } from './list.js';
