export * from './answer-block.js';
export * from './collapse.js';
export * from './format.js';
export * from './grade.js';
export * from './levels.js';
export * from './outcome.js';
