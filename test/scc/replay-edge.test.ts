import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { replaySccLogs } from '../../src/assays/scc/replay.js';

/** Two released runs copied verbatim, a synthetic preflight-skipped model and a malformed summary entry. */
const edge = new URL('../../fixtures/scc/replay-edge/', import.meta.url);
const trialsPath = fileURLToPath(new URL('edge.jsonl', edge));
const summaryPath = fileURLToPath(new URL('edge.summary.json', edge));
const releasedPath = fileURLToPath(new URL('../../fixtures/scc/logs/closed.jsonl', import.meta.url));
const REAL = ['gpt-3.5-turbo', 'gpt-4o-mini'];

const dir = mkdtempSync(join(tmpdir(), 'ceilingbench-scc-edge-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('scc-replay on a log + summary with a preflight-skipped and a malformed model', () => {
  it('replays every model, reports the skipped one with CC 0 as published and the malformed one with its error', async () => {
    const rows = await replaySccLogs(trialsPath, summaryPath);
    expect(rows.map((r) => r.model)).toEqual([...REAL, 'synthetic/preflight-skipped', 'synthetic/wrong-type-summary']);
    for (const row of rows.slice(0, 2)) {
      expect(row).toMatchObject({ error: null, skipped: false, match: true, discrepancies: [] });
      expect(row.callsFullTiers).toBe(row.callsLogged);
    }
    expect(rows[0]).toMatchObject({ cc: 32, ccUpper: 36, published: { cc: 32, ccUpper: 36, bounded: true } });
    expect(rows[1]).toMatchObject({ cc: 36, ccUpper: 40, published: { cc: 36, ccUpper: 40, bounded: true } });
    // Our replay of the one logged preflight fails it too: skipped, CC 0, upper 32, one call.
    expect(rows[2]).toEqual({
      model: 'synthetic/preflight-skipped',
      error: null,
      skipped: true,
      cc: 0,
      ccLower: 0,
      ccUpper: 32,
      bounded: false,
      calls: 1,
      callsFullTiers: 1,
      callsLogged: 1,
      tokensSaved: 0,
      published: { cc: 0, ccUpper: 32, bounded: null, skipped: true },
      match: true,
      discrepancies: [],
      formatAudit: [{ category: 'no-number', cases: 1, parsed: 0, models: 1 }],
    });
    expect(rows[3]).toMatchObject({
      error: expect.stringMatching(
        /model 'synthetic\/wrong-type-summary': field 'cc' .*expected number, received string/,
      ),
      match: false,
      cc: null,
      published: null,
      callsLogged: 1,
    });
  }, 60_000);

  it('holds the released runs verbatim and the synthetic skipped entry in the shape the writer emits', () => {
    const lines = (path: string) =>
      readFileSync(path, 'utf8')
        .split('\n')
        .filter((l) => l !== '');
    const released = lines(releasedPath).filter((l) => REAL.includes(JSON.parse(l).model));
    const real = lines(trialsPath).filter((l) => REAL.includes(JSON.parse(l).model));
    expect(real).toEqual(released);
    const summary = JSON.parse(readFileSync(summaryPath, 'utf8')).models;
    const releasedSummary = JSON.parse(readFileSync(releasedPath.replace(/\.jsonl$/, '.summary.json'), 'utf8')).models;
    for (const model of REAL) expect(summary[model]).toEqual(releasedSummary[model]);
    const skipped = summary['synthetic/preflight-skipped'];
    expect(skipped).toMatchObject({
      skipped: true,
      skip_reason: 'preflight_failed',
      cc: 0,
      cc_upper_bound: 32,
      bounded: null,
      inferred_seed: null,
      rng_draw_mode: null,
      learned_max_output_tokens: null,
      evaluations: [],
    });
  });

  it('gives an error row to a model with a malformed log line, one missing from the summary and one without trials', async () => {
    const text = readFileSync(trialsPath, 'utf8').split('\n');
    const at = text.findIndex((l) => l.includes('"model": "gpt-4o-mini"') && l.includes('"evaluation_index": 1,'));
    text[at] = text[at].replace('"expected": ', '"expected": "x", "was": ');
    text.push(text[text.length - 2].replace('synthetic/wrong-type-summary', 'synthetic/log-only'));
    const trials = file('broken.jsonl', text.join('\n'));
    const summary = JSON.parse(readFileSync(summaryPath, 'utf8'));
    summary.models['synthetic/summary-only'] = summary.models['synthetic/preflight-skipped'];
    const summaryFile = file('broken.summary.json', JSON.stringify(summary));
    const rows = await replaySccLogs(trials, summaryFile);
    const byModel = Object.fromEntries(rows.map((r) => [r.model, r]));
    expect(byModel['gpt-3.5-turbo']).toMatchObject({ error: null, match: true });
    expect(byModel['synthetic/preflight-skipped']).toMatchObject({ error: null, cc: 0, match: true });
    expect(byModel['gpt-4o-mini'].error).toMatch(new RegExp(`broken\\.jsonl:${at + 1}: field 'expected'`));
    expect(byModel['gpt-4o-mini'].published).toEqual({ cc: 36, ccUpper: 40, bounded: true, skipped: false });
    expect(byModel['synthetic/log-only'].error).toMatch(/not in .*broken\.summary\.json/);
    expect(byModel['synthetic/summary-only'].error).toMatch(/no trials in .*broken\.jsonl/);
    expect(rows.filter((r) => r.error !== null)).toHaveLength(4);
  }, 60_000);

  it('gives an error row, not a crash, when a model published as skipped passed its preflight in the log', async () => {
    const summary = JSON.parse(readFileSync(summaryPath, 'utf8'));
    summary.models['gpt-3.5-turbo'] = summary.models['synthetic/preflight-skipped'];
    const rows = await replaySccLogs(trialsPath, file('lying.summary.json', JSON.stringify(summary)), 'gpt-3.5-turbo');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ model: 'gpt-3.5-turbo', match: false, published: { skipped: true } });
    expect(rows[0].error).toMatch(/^replay failed \(published as skipped\): /);
  });
});
