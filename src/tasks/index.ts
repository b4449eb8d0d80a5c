export * from './instances.js';
export * from './outcome.js';
export * from './registry.js';
export * from './task.js';
