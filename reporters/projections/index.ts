export * from './build.js';
export * from './format.js';
export * from './junit.js';
export * from './markdown.js';
export * from './write.js';
