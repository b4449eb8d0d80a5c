import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { authorsReplayOptions, configFromSummary, loadSccSummary, replaySccLogs } from '../../src/assays/scc/replay.js';
import { runSccAssay } from '../../src/assays/scc/run.js';
import { sccResultSchema } from '../../src/assays/scc/schema.js';
import { runCli } from '../../src/cli/program.js';
import {
  createSccLogReplaySubject,
  loadSccLog,
  parseSccLog,
  recordedText,
  sccLogReplaySubject,
} from '../../src/subjects/replay/scc-log.js';
import { parseLastInteger } from '../../src/tasks/count/parse.js';

const logs = new URL('../../fixtures/scc/logs/', import.meta.url);
const trialsPath = fileURLToPath(new URL('closed.jsonl', logs));
const summaryPath = fileURLToPath(new URL('closed.summary.json', logs));

describe('SCC replay conformance on the 44 released closed-model runs', () => {
  it('matches the published cc, upper bound and bounded flag for 44/44 models, with and without early decision', async () => {
    const rows = await replaySccLogs(trialsPath, summaryPath);
    expect(rows).toHaveLength(44);
    expect(rows.filter((r) => !r.match).map((r) => r.model)).toEqual([]);
    // The full-tier run, scheduled as the authors' runner, reproduces the log: same path and verdicts,
    // same error bars, same requested budgets, and exactly the logged number of trials.
    expect(rows.flatMap((r) => r.discrepancies.map((d) => `${r.model}: ${d}`))).toEqual([]);
    expect(rows.map((r) => r.callsFullTiers)).toEqual(rows.map((r) => r.callsLogged));
    const full = rows.reduce((s, r) => s + r.callsFullTiers, 0);
    const ours = rows.reduce((s, r) => s + r.calls, 0);
    expect(full).toBe(4959);
    expect(ours).toBeLessThan(full);
    const published = JSON.parse(readFileSync(summaryPath, 'utf8')).models as Record<string, { cc: number }>;
    for (const row of rows) expect(row.cc).toBe(published[row.model].cc);
  }, 60_000);

  it('reproduces every published tier MAPE except the four tiers of the stored first-integer quirk (§15.3)', async () => {
    const [models, summary] = await Promise.all([loadSccLog(trialsPath), loadSccSummary(summaryPath)]);
    const raw = JSON.parse(readFileSync(summaryPath, 'utf8')).models as Record<
      string,
      { evaluations: { evaluation_index: number; mape: number | null }[] }
    >;
    const differing: string[] = [];
    let tiers = 0;
    for (const [name, log] of models) {
      const published = summary.models[name];
      const result = await runSccAssay(
        sccLogReplaySubject(log, name),
        authorsReplayOptions(published, configFromSummary(summary)),
      );
      for (const tier of result.tiers) {
        tiers++;
        const logged = raw[name].evaluations[tier.evaluationIndex].mape;
        if (logged === null ? tier.mape !== null : tier.mape === null || Math.abs(tier.mape - logged) > 1e-9) {
          differing.push(`${name} ${tier.evaluationIndex}`);
        }
      }
    }
    expect(tiers).toBe(309);
    expect(differing.sort()).toEqual([
      'gemini-2.5-flash 2',
      'gemini-3-flash-preview 4',
      'gemini-3-flash-preview 5',
      'gemini-3-flash-preview 6',
    ]);
  }, 60_000);

  it('parses every logged response as stored, except the six first-integer values of §15.3', async () => {
    const quirks: string[] = [];
    for (const [name, log] of await loadSccLog(trialsPath)) {
      for (const trial of log.trials) {
        if (trial.response_status === 'error') continue;
        const parsed = parseLastInteger(recordedText(trial));
        if ((parsed === null ? null : Number(parsed)) !== trial.parsed) {
          quirks.push(`${name} ${trial.evaluation_index}/${trial.trial_index} ${trial.parsed}→${parsed}`);
        }
      }
    }
    expect(quirks).toEqual([
      'gemini-2.5-flash 2/4 10→50',
      'gemini-3-flash-preview 4/1 10→110',
      'gemini-3-flash-preview 4/4 2998→1000',
      'gemini-3-flash-preview 5/9 10→9',
      'gemini-3-flash-preview 6/1 20→200',
      'gemini-3-flash-preview 6/9 1→36',
    ]);
  });

  it('serves a model through replay:<path>#model and returns a schema-valid result', async () => {
    const subject = await createSccLogReplaySubject(trialsPath, 'anthropic/claude-3.5-haiku');
    const result = await runSccAssay(subject, { seed: 8 });
    expect(sccResultSchema.parse(result)).toBeTruthy();
    expect(result.tiers.map((t) => t.center)).toEqual([32, 64, 128, 256, 192, 160, 144]);
    expect({ cc: result.cc, upper: result.ccUpper, bar: result.errorBar }).toEqual({
      cc: 144,
      upper: 160,
      bar: { lower: 14, upper: 16 },
    });
  });

  it('stops with a clear error when the seed is wrong (the ladder leaves the recorded targets)', async () => {
    const subject = await createSccLogReplaySubject(trialsPath, 'gpt-4o');
    await expect(runSccAssay(subject, { seed: 1234 })).rejects.toThrow(/target .* the log has/);
  });

  it('names the bad line of a truncated or malformed log', () => {
    const good = readFileSync(trialsPath, 'utf8').split('\n')[0];
    expect(() => parseSccLog(`${good}\n${good.slice(0, 80)}\n`, 'x.jsonl')).toThrow(
      /x\.jsonl:2: not a complete JSON object/,
    );
    // A line that names its model but does not validate marks that model only; the replay gives it an error row.
    const broken = good.replace('"retry_count": 0', '"retry_count": "zero"');
    const [model] = parseSccLog(broken, 'y.jsonl').values();
    expect(model.error).toMatch(/y\.jsonl:1: field 'retry_count'/);
    expect(model.trials).toEqual([]);
    expect(() => sccLogReplaySubject(model, 'replay:y.jsonl')).toThrow(
      /malformed line: y\.jsonl:1: field 'retry_count'/,
    );
    expect(() => parseSccLog('{"raw_response": "8"}\n', 'w.jsonl')).toThrow(/w\.jsonl:1: field 'model'/);
    expect(() => parseSccLog('\n', 'z.jsonl')).toThrow(/no trials/);
  });

  it('scc-replay prints the rows as JSON and exits 0 when every model matches', async () => {
    let out = '';
    const io = { stdout: (t: string) => (out += t), stderr: () => {} };
    const code = await runCli(
      ['scc-replay', '--trials', trialsPath, '--summary', summaryPath, '--model', 'o1', '--json'],
      io,
    );
    expect(code).toBe(0);
    const rows = JSON.parse(out);
    expect(rows).toEqual([
      expect.objectContaining({ model: 'o1', cc: 80, ccUpper: 88, bounded: true, match: true, callsFullTiers: 83 }),
    ]);
    expect(rows[0].published).toEqual({ cc: 80, ccUpper: 88, bounded: true, skipped: false });
    expect(rows[0]).toMatchObject({ error: null, skipped: false });
  });

  it('scc-replay rejects missing arguments with exit 2', async () => {
    let err = '';
    const io = { stdout: () => {}, stderr: (t: string) => (err += t) };
    expect(await runCli(['scc-replay', '--summary', summaryPath], io)).toBe(2);
    expect(err).toMatch(/--trials is required/);
    expect(await runCli(['scc-replay', '--trials', trialsPath, '--summary', summaryPath, '--model', 'nope'], io)).toBe(
      2,
    );
    expect(err).toMatch(/model 'nope' is not in/);
  });
});
