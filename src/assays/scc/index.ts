export * from './analyses';
export * from './config';
export * from './ladder';
export * from './replay';
export * from './run';
export * from './schema';
export * from './tally';
export { evaluateTier, type TierRun } from './tier';
export { isAbortWorthy, runSccTrial, SccFatalError, type SccTrialRecord, shouldPromote } from './trial';
