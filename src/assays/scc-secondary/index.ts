export * from './agent';
export { ask, mapLimit } from './ask';
export * from './dual-task';
export * from './motif';
export * from './records';
export * from './schema';
export * from './smoothing';
export * from './thresholds';
