export * from './analyses.js';
export * from './config.js';
export * from './ladder.js';
export * from './replay.js';
export * from './run.js';
export * from './schema.js';
export * from './tally.js';
export { evaluateTier, type StoppedTier, type TierOutcome, type TierRun } from './tier.js';
export { isAbortWorthy, runSccTrial, SccFatalError, type SccTrialRecord, shouldPromote } from './trial.js';
