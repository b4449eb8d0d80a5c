export * from './instances.js';
export * from './outcome.js';
export * from './reasoning-channels.js';
export * from './registry.js';
export * from './task.js';
