export * from './define.js';
export * from './design.js';
export * from './errors.js';
export * from './load.js';
export * from './resolve.js';
export * from './schema.js';
