import type { DepthCount } from './depth-counts.js';

/** CCB outcome classes as graded per trial (src/tasks/outcome.ts). */
export type CcbKind = 'correct' | 'reasoning' | 'constraint' | 'format' | 'truncation' | 'api';

/**
 * Which trials enter the p_d denominator:
 * - 'paper': only Correct, Reasoning and Constraint (Format, Truncation, API are missing data, as paper 000 §3
 *   says);
 * - 'release': every record except API (how the released code computed the published p_d, docs/spec/ccb.md §6.2).
 */
export type MissingRule = 'paper' | 'release';

const COUNTED: Record<MissingRule, ReadonlySet<CcbKind>> = {
  paper: new Set(['correct', 'reasoning', 'constraint']),
  release: new Set(['correct', 'reasoning', 'constraint', 'format', 'truncation']),
};

/** Per-depth (correct, n) under a missing-data rule, sorted by depth; depths whose n would be 0 are kept (n = 0). */
export function countsFromOutcomes(
  records: Array<{ depth: number; kind: CcbKind }>,
  missing: MissingRule = 'paper',
): DepthCount[] {
  const counted = COUNTED[missing];
  const byDepth = new Map<number, DepthCount>();
  for (const { depth, kind } of records) {
    const entry = byDepth.get(depth) ?? { depth, correct: 0, n: 0 };
    if (counted.has(kind)) {
      entry.n++;
      if (kind === 'correct') entry.correct++;
    }
    byDepth.set(depth, entry);
  }
  return [...byDepth.values()].sort((a, b) => a.depth - b.depth);
}

export interface OutcomeRates {
  records: number;
  /** Share of non-API records per class (null when every record was an API fault). */
  format: number | null;
  truncation: number | null;
  /** API faults as a share of all records. */
  api: number | null;
}

/** Format and truncation rates to print beside p_d, so neither missing-data rule hides them. */
export function outcomeRates(records: Array<{ kind: CcbKind }>): OutcomeRates {
  const total = records.length;
  const api = records.filter((r) => r.kind === 'api').length;
  const answered = total - api;
  const share = (kind: CcbKind) => (answered === 0 ? null : records.filter((r) => r.kind === kind).length / answered);
  return {
    records: total,
    format: share('format'),
    truncation: share('truncation'),
    api: total === 0 ? null : api / total,
  };
}
