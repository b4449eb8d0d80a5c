import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type ReplayOptions, replaySccLogs, type SccReplayRow } from '../../src/assays/scc/replay.js';

const logs = new URL('../../fixtures/scc/logs/', import.meta.url);
const trialsPath = fileURLToPath(new URL('closed.jsonl', logs));
const summaryPath = fileURLToPath(new URL('closed.summary.json', logs));

const total = (rows: SccReplayRow[], key: 'calls' | 'callsFullTiers') => rows.reduce((s, r) => s + r[key], 0);

/** Replays all 44 models; every row must reproduce the published record and every tier verdict. */
async function replayAll(options: ReplayOptions) {
  const rows = await replaySccLogs(trialsPath, summaryPath, undefined, options);
  expect(rows).toHaveLength(44);
  expect(rows.filter((r) => !r.match).map((r) => r.model)).toEqual([]);
  // discrepancies include "our schedule … changed the path": a tier verdict of ours that differs from full tiers'
  expect(rows.flatMap((r) => r.discrepancies.map((d) => `${r.model}: ${d}`))).toEqual([]);
  expect(total(rows, 'callsFullTiers')).toBe(4959);
  return { rows, calls: total(rows, 'calls'), saved: 1 - total(rows, 'calls') / 4959 };
}

// Calls are counted, not timed: the replay subject answers at once and the pool's completion order is
// deterministic, so these counts are the same on every run (docs/scc.md, "Schedule").
describe('SCC schedule on the 44 released closed-model logs', () => {
  it('largest targets first + the preflight only after a failed first tier: same CC 44/44, ≥ 14% fewer calls at 4 in flight', async () => {
    const ours = await replayAll({ concurrency: 4 });
    const authorsOrder = await replayAll({ concurrency: 4, launchOrder: 'index', preflight: 'first' });
    for (const row of ours.rows) expect(row.cc).toBe(row.published?.cc);
    expect(ours.saved).toBeGreaterThanOrEqual(0.14);
    expect(authorsOrder.calls).toBe(4430);
    expect(ours.calls).toBeLessThan(authorsOrder.calls);
    // more than the 44 preflights it never needed (every first tier passed): largest first saves calls too
    expect(authorsOrder.calls - ours.calls).toBeGreaterThan(44);
  }, 120_000);

  it('one at a time: ≥ 21% fewer calls than full tiers, against 17.3% in the authors’ order', async () => {
    const ours = await replayAll({ concurrency: 1 });
    const authorsOrder = await replayAll({ concurrency: 1, launchOrder: 'index', preflight: 'first' });
    expect(authorsOrder.calls).toBe(4101);
    expect(ours.saved).toBeGreaterThanOrEqual(0.21);
    expect(ours.calls).toBeLessThan(authorsOrder.calls - 44);
  }, 120_000);
});
