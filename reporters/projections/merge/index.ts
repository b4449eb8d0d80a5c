// The face of reporters/projections/merge (re-exports only): merging separate runs into one report and leaderboard; the
// rules are stated in reports.ts.
export type { MergeInput } from './attribution.js';
export { pairRuns, type RunPairing } from './pairing.js';
export { type MergeOptions, type MergeResult, mergedTestEntries, mergeReports } from './reports.js';
