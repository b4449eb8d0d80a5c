export * from './ablation';
export * from './fit-collapse';
export * from './fit-retention';
export * from './run-cell';
export * from './run-trial';
export * from './summarize-cell';
