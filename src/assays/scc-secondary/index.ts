export { mapLimit } from '../limit.js';
export * from './agent.js';
export { ask } from './ask.js';
export * from './dual-task.js';
export * from './motif.js';
export * from './records.js';
export * from './schema.js';
export * from './smoothing.js';
export * from './thresholds.js';
