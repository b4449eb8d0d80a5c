import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { SccReplayRow } from '../../src/assays/scc/replay.js';
import {
  sccLeaderboardMarkdown,
  sccLeaderboardText,
  sccReplayLeaderboard,
  sccReplayLeaderboardSchema,
} from '../../src/assays/scc/replay-leaderboard.js';
import { runCli } from '../../src/cli/program.js';

// Issue 20, SCC at scale: scc-replay of the 44 released closed-model logs renders a CC leaderboard (Table S1 as
// the authors published it, with our ladder) whose values equal the published CCs.

const logs = new URL('../../fixtures/scc/logs/', import.meta.url);
const trialsPath = fileURLToPath(new URL('closed.jsonl', logs));
const summaryPath = fileURLToPath(new URL('closed.summary.json', logs));

describe('scc-replay of the 44 released closed-model logs: the CC leaderboard', () => {
  it('ranks all 44 by our CC, every CC equal to the published one, in the text, the JSON and the Markdown', async () => {
    const out = mkdtempSync(join(tmpdir(), 'cb-scc-lb-'));
    const stdout: string[] = [];
    const code = await runCli(['scc-replay', '--trials', trialsPath, '--summary', summaryPath, '--out', out], {
      stdout: (t) => stdout.push(t),
      stderr: () => {},
    });
    expect(code).toBe(0);
    // the published CCs, read from the summary file itself
    const published = JSON.parse(readFileSync(summaryPath, 'utf8')).models as Record<string, { cc: number }>;
    expect(Object.keys(published)).toHaveLength(44);

    const written = JSON.parse(readFileSync(join(out, 'scc-replay.json'), 'utf8'));
    const lb = sccReplayLeaderboardSchema.parse(written.leaderboard);
    expect(lb.models).toBe(44);
    expect(lb.equal).toBe(44);
    expect(lb.rows.map((r) => r.model).sort()).toEqual(Object.keys(published).sort());
    for (const row of lb.rows) {
      expect(row.cc).toBe(published[row.model].cc);
      expect(row.publishedCc).toBe(published[row.model].cc);
      expect(row.equal).toBe(true);
      expect(row.ccLower).toBe(row.cc);
      expect(row.ccUpper).toBeGreaterThan(row.cc ?? Number.NaN);
    }
    // ranked by CC, highest first; the top model is alone at rank 1 (its bounds clear every other's)
    const ccs = lb.rows.map((r) => r.cc as number);
    expect(ccs).toEqual([...ccs].sort((a, b) => b - a));
    expect(lb.rows[0]).toMatchObject({ rank: '1', model: 'claude-opus-4-20250514', cc: 2176 });
    expect(lb.rows.every((r) => r.rank !== null)).toBe(true);
    // equal CCs share a rank range: the four models at 352
    expect(lb.rows.filter((r) => r.cc === 352).map((r) => r.rank)).toEqual(['9–12', '9–12', '9–12', '9–12']);
    expect(lb.board?.relations).toHaveLength(43);

    const text = stdout.join('');
    expect(text).toMatch(
      /rank +model +CC +ladder bounds +published CC +equal\n1 +claude-opus-4-20250514 +2176 +\[2176, 2304\] +2176 +yes\n/,
    );
    expect(text).toContain('CC equal to the published: 44/44 models');
    expect(text).toContain(`wrote ${join(out, 'scc-leaderboard.md')}`);

    const md = readFileSync(join(out, 'scc-leaderboard.md'), 'utf8');
    expect(md.split('\n').filter((l) => /^\| (\d|—)/.test(l))).toHaveLength(44);
    expect(md).toContain('| 1 | claude-opus-4-20250514 | 2176 | [2176, 2304] | 2176 | yes |');
    expect(md).toContain('CC equal to the published: 44/44 models');
  }, 120_000);
});

const row = (model: string, fields: Partial<SccReplayRow>): SccReplayRow => ({
  model,
  error: null,
  skipped: false,
  cc: 64,
  ccLower: 64,
  ccUpper: 72,
  bounded: true,
  calls: 10,
  callsFullTiers: 12,
  callsLogged: 12,
  tokensSaved: 0,
  published: { cc: 64, ccUpper: 72, bounded: true, skipped: false },
  match: true,
  discrepancies: [],
  formatAudit: [],
  ...fields,
});

describe('the CC leaderboard of replay rows', () => {
  const lb = sccReplayLeaderboard([
    row('broken', { error: 'no trials', cc: null, ccLower: null, ccUpper: null, skipped: null }),
    row('low', { cc: 32, ccLower: 32, ccUpper: 36, published: { cc: 36, ccUpper: 40, bounded: true, skipped: false } }),
    row('skipped', {
      skipped: true,
      cc: 0,
      ccLower: 0,
      ccUpper: 32,
      bounded: false,
      published: { cc: 0, ccUpper: 32, bounded: null, skipped: true },
    }),
    row('high', {}),
    row('high-too', {
      cc: 68,
      ccLower: 68,
      ccUpper: 72,
      published: { cc: 68, ccUpper: 72, bounded: true, skipped: false },
    }),
  ]);

  it('ranks by CC with the ranges the bounds leave open; a skipped model and a failed replay come last, unranked', () => {
    expect(lb.rows.map((r) => [r.rank, r.model, r.cc, r.equal])).toEqual([
      ['1–2', 'high-too', 68, true],
      ['1–2', 'high', 64, true],
      ['3', 'low', 32, false],
      [null, 'skipped', 0, true],
      [null, 'broken', null, false],
    ]);
    expect(lb.equal).toBe(3);
    expect(lb.models).toBe(5);
  });

  it('shows a differing CC as NO, a skipped model and a missing replay plainly', () => {
    const text = sccLeaderboardText(lb);
    expect(text).toMatch(/\n3 +low +32 +\[32, 36\] +36 +NO\n/);
    expect(text).toMatch(/\n— +skipped +0 \(skipped\) +\[0, 32\] +0 +yes\n/);
    expect(text).toMatch(/\n— +broken +— +— +64 +NO\n/);
    expect(text).toContain('CC equal to the published: 3/5 models');
    const md = sccLeaderboardMarkdown(lb, 'SCC leaderboard: x');
    expect(md).toContain('| 3 | low | 32 | [32, 36] | 36 | NO |');
    expect(md).toMatch(/\n- high-too ≈ high \(ladder bounds 68–72 and 64–72 overlap\)\n- high > low \(/);
  });
});
