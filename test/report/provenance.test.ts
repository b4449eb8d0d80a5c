import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildReport, type RunInfo, type TestEntry } from '../../reporters/projections/build.js';
import { assemblePage } from '../../reporters/projections/html/page.js';
import { renderJunit } from '../../reporters/projections/junit.js';
import { renderMarkdown } from '../../reporters/projections/markdown.js';
import { runCli } from '../../src/cli/program.js';
import { comparisonSchema } from '../../src/compare/schema.js';
import type { Report } from '../../src/schema/report.js';
import type { SubjectIdentity } from '../../src/schema/subject.js';
import type { Subject } from '../../src/subjects/subject.js';
import { simRecords } from '../leaderboard/sim-records.js';

// Issue 42 item 1: every report and both sides of `compare` say what produced the numbers — subject label and kind,
// requested and served models with counts, endpoint host (never the key), seed, trials, design, missing-data rule,
// reading and prompt profiles, ceilingbench and Vitest versions — and a sim-vs-live comparison warns.

const KEY = 'sk-test-provenance-0123456789';

const RUN: RunInfo = {
  version: '0.1.0',
  gitSha: null,
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:00:01.000Z',
  durationMs: 1000,
  settings: {
    trials: 20,
    design: 'grid',
    missingRule: 'paper',
    maxMissingFraction: 0.2,
    reasoningDelimiters: 0,
    vitestVersion: '4.1.12',
  },
};

/** A sim subject's answers, served under the given model names in turn (a gateway that falls back now and then). */
const servedAs =
  (models: readonly string[]) =>
  (subject: Subject): Subject => {
    let i = 0;
    return {
      identity: subject.identity,
      async answer(request) {
        const r = await subject.answer(request);
        return r.kind === 'answer' ? { ...r, servedModel: models[i++ % models.length] } : r;
      },
    };
  };

async function entries(subject: SubjectIdentity, wrap?: (s: Subject) => Subject): Promise<TestEntry[]> {
  const records = await simRecords({
    spec: 'sim:retention?p=0.9',
    runSeed: 0,
    tasks: ['d2'],
    trials: 20,
    levels: [5, 10, 15],
    ...(wrap ? { wrap } : {}),
  });
  const entry = (name: string, record: NonNullable<TestEntry['meta']>['record']): TestEntry => ({
    project: 'd2',
    name,
    file: 'specs/d2.spec.ts',
    state: 'passed',
    errors: [],
    durationMs: 1,
    meta: { record, gates: [], subject, seed: 0 },
  });
  return [...records.cells.map((c) => entry(`d2 · N=${c.level}`, c)), ...records.fits.map((f) => entry('d2 · fit', f))];
}

const SIM: SubjectIdentity = { spec: 'sim:retention?p=0.9', kind: 'sim', parameters: {} };
const LIVE: SubjectIdentity = {
  spec: 'openai:gpt-x',
  kind: 'openai',
  model: 'gpt-x',
  endpoint: 'https://gateway.example.com:8443/v1',
  parameters: {},
};

let simReport: Report;
let liveReport: Report;
let liveEntries: TestEntry[];

beforeAll(async () => {
  simReport = buildReport(await entries(SIM), RUN);
  liveEntries = await entries(LIVE, servedAs(['gpt-x-2026-01-01', 'gpt-x-2026-01-01', 'totally-different-model']));
  liveReport = buildReport(liveEntries, RUN);
});

describe('the provenance block of a report', () => {
  it('names the subject, the requested and served models with their counts, the host and the settings', () => {
    const p = liveReport.provenance;
    expect(p?.subjects).toEqual([
      {
        label: 'openai:gpt-x',
        kind: 'openai',
        offline: false,
        requestedModel: 'gpt-x',
        servedModels: [
          { model: 'gpt-x-2026-01-01', trials: 40 },
          { model: 'totally-different-model', trials: 20 },
        ],
        servedUnreported: 0,
        endpointHost: 'gateway.example.com:8443',
      },
    ]);
    expect(p).toMatchObject({
      seed: 0,
      trials: 20,
      design: 'grid',
      missingRule: 'paper',
      maxMissingFraction: 0.2,
      promptProfiles: ['official'],
      packageVersion: '0.1.0',
      vitestVersion: '4.1.12',
    });
    expect(simReport.provenance?.subjects[0]).toMatchObject({ kind: 'sim', offline: true, requestedModel: null });
  });

  it('is in summary.md, index.html and the JUnit properties, and none of them holds a key or a path', () => {
    const md = renderMarkdown(liveReport);
    expect(md).toContain('## Provenance');
    expect(md).toMatch(/model requested gpt-x, served gpt-x-2026-01-01 ×40, totally-different-model ×20/);
    expect(md).toContain('endpoint gateway.example.com:8443');
    expect(md).toMatch(/seed 0 · trials 20 · design grid · missing-data rule paper .* vitest 4\.1\.12/);
    const xml = renderJunit(liveReport, liveEntries);
    expect(xml).toContain('<property name="provenance.subject.openai:gpt-x.requested_model" value="gpt-x"/>');
    expect(xml).toContain(
      '<property name="provenance.subject.openai:gpt-x.served_models" value="gpt-x-2026-01-01 ×40, totally-different-model ×20"/>',
    );
    expect(xml).toContain(
      '<property name="provenance.subject.openai:gpt-x.endpoint_host" value="gateway.example.com:8443"/>',
    );
    expect(xml).toContain('<property name="provenance.trials" value="20"/>');
    expect(xml).toContain('<property name="provenance.vitest_version" value="4.1.12"/>');
    const html = assemblePage(liveReport, [], []);
    expect(html).toContain('<th>Provenance</th>');
    expect(html).toContain('totally-different-model ×20');
    for (const text of [md, xml, html, JSON.stringify(liveReport.provenance)]) expect(text).not.toContain(KEY);
  });
});

describe('compare: both provenance blocks first, each difference, and the sim-vs-live warning', () => {
  let dir: string;
  const write = (name: string, report: Report) => {
    const file = join(dir, name);
    writeFileSync(file, JSON.stringify(report));
    return file;
  };
  async function cli(...argv: string[]) {
    const out: string[] = [];
    const code = await runCli(argv, { stdout: (t) => out.push(t), stderr: () => {} });
    return { code, out: out.join('') };
  }
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cb-provenance-'));
  });

  it('prints both sides, what differs and a warning in the verdict line (text)', async () => {
    const r = await cli('compare', write('v1.json', simReport), write('ceilingbench.json', liveReport));
    const lines = r.out.split('\n');
    expect(lines[0]).toBe('baseline v1:');
    expect(lines[1]).toBe('  subject sim:retention?p=0.9 (sim, offline: no live model)');
    expect(r.out).toContain('candidate ceilingbench:\n  subject openai:gpt-x (openai) · model requested gpt-x');
    expect(r.out).toContain('- subject label: baseline sim:retention?p=0.9, candidate openai:gpt-x');
    expect(r.out).toContain('- subject kind: baseline sim, candidate openai');
    expect(r.out).toContain('- subject requested model: baseline none, candidate gpt-x');
    // the blocks come before any number
    expect(r.out.indexOf('difference(s) between the sides')).toBeLessThan(r.out.indexOf('| metric |'));
    const verdict = lines.filter((l) => /^(PASS|FAIL)/.test(l));
    expect(verdict).toHaveLength(1);
    expect(verdict[0]).toMatch(/ — WARNING: the baseline comes from sim:retention\?p=0\.9 \(simulated or replayed/);
    expect(verdict[0]).toContain('the candidate from the live openai:gpt-x');
  });

  it('carries both blocks, the differences and the warning in --json', async () => {
    const r = await cli('compare', write('v1.json', simReport), write('ceilingbench.json', liveReport), '--json');
    const c = comparisonSchema.parse(JSON.parse(r.out));
    expect(c.provenance.baseline.subjects[0].label).toBe('sim:retention?p=0.9');
    expect(c.provenance.candidate.subjects[0].servedModels[0]).toEqual({ model: 'gpt-x-2026-01-01', trials: 40 });
    expect(c.provenance.differences.length).toBeGreaterThan(0);
    expect(c.provenance.warning).toMatch(/no live model/);
  });

  it('says the sides agree, and warns of nothing, when the same subject and settings are compared', async () => {
    const r = await cli('compare', write('a.json', simReport), write('b.json', simReport));
    expect(r.out).toContain('same subject, settings and versions on both sides');
    expect(r.out).not.toContain('WARNING');
  });

  it('names a setting one side did not record (a report written before provenance was kept)', async () => {
    const { provenance: _, ...old } = simReport;
    const r = await cli('compare', write('old.json', old as Report), write('new.json', simReport), '--json');
    const c = comparisonSchema.parse(JSON.parse(r.out));
    expect(c.provenance.baseline.trials).toBeNull();
    expect(c.provenance.differences).toContain('trials per cell: baseline not recorded, candidate 20');
  });
});

it('a report file written by the run carries the block (ceilingbench.json on disk)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cb-provenance-set-'));
  const { writeReportSet } = await import('../../reporters/projections/write.js');
  writeReportSet(liveReport, liveEntries, dir);
  const json = JSON.parse(readFileSync(join(dir, 'ceilingbench.json'), 'utf8')) as Report;
  expect(json.provenance?.subjects[0].endpointHost).toBe('gateway.example.com:8443');
  expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toContain('## Provenance');
});

it('a merged report (`ceilingbench report a.json b.json`) carries the block: both subjects, the settings they agree on', async () => {
  const { mergeReports } = await import('../../reporters/projections/merge/index.js');
  const merged = mergeReports(
    [
      { name: 'sim', report: simReport },
      { name: 'live', report: liveReport },
    ],
    { version: '0.1.0' },
  ).report;
  expect(merged.provenance?.subjects.map((s) => s.label)).toEqual(['openai:gpt-x', 'sim:retention?p=0.9']);
  expect(merged.provenance?.subjects[0].servedModels).toEqual(liveReport.provenance?.subjects[0].servedModels);
  expect(merged.provenance).toMatchObject({ trials: 20, design: 'grid', vitestVersion: '4.1.12' });
});
