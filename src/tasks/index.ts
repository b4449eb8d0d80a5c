export type { FormatCategory } from './count/audit.js';
export * from './instances.js';
export * from './ladder.js';
export * from './outcome.js';
export * from './reasoning-channels.js';
export * from './registry.js';
export * from './task.js';
