export * from './baseline.js';
export * from './compare.js';
export * from './holm.js';
export * from './load.js';
export * from './retention-difference.js';
export * from './schema.js';
