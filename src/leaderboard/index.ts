// The face of src/leaderboard (re-exports only). The rules the leaderboard follows are stated in build.ts.
export { buildLeaderboard } from './build.js';
export { bootstrapP, compareAccuracy, compareRetention, pairedRetentionDraws } from './differences.js';
export type { LabelledSubject, LeaderboardSubject } from './input.js';
export { type NotWorseOptions, notWorseThan } from './not-worse.js';
export { type PairTable, pairSweeps } from './pairing.js';
export { formatP, orderByHeadline, rankStandings } from './rank.js';
export type { LeaderboardOptions } from './settings.js';
