export * from './cost.js';
export * from './design.js';
export * from './information.js';
export * from './sweep.js';
export * from './task-answerer.js';
