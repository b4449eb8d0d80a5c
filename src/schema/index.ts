export * from './baseline.js';
export * from './cell.js';
export * from './fit.js';
export * from './gate.js';
export * from './meta.js';
export * from './report.js';
export * from './subject.js';
export * from './trial.js';
