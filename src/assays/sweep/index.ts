export * from './ablation.js';
export * from './examples.js';
export * from './fit-collapse.js';
export * from './fit-retention.js';
export * from './fit-sweep.js';
export * from './run-cell.js';
export * from './run-trial.js';
export * from './summarize-cell.js';
