import type { PuzzleOutcome } from '../../outcome.js';

/** Outcome constructors shared by the nine puzzle families (docs/spec/puzzles.md §1.1). */
export const passOutcome = (): PuzzleOutcome => ({
  family: 'puzzle',
  kind: 'pass',
  kStar: -1,
  tfbc: false,
  issues: [],
});

/** Parsed, but the validator rejected it; `firstBadStep` is the 1-based index of the first offending move. */
export const failOutcome = (issues: string[], firstBadStep = -1): PuzzleOutcome => ({
  family: 'puzzle',
  kind: 'fail',
  kStar: firstBadStep,
  tfbc: false,
  issues,
});

/** No parseable or complete answer: empty, cut off, malformed, degenerate, or "impossible" for a solvable instance. */
export const collapseOutcome = (issues: string[]): PuzzleOutcome => ({
  family: 'puzzle',
  kind: 'collapse',
  kStar: -1,
  tfbc: false,
  issues,
});
