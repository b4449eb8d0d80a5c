import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  clearReportSet,
  markRunStarted,
  REPORT_SET_MANIFEST,
  readReportSetManifest,
  restoreManifest,
  sealReportSet,
  unfinishedRunNote,
} from '../../reporters/projections/report-set.js';

// Issue 42 items 5 and 4: a run removes only the files of its own report set (the manifest lists them with their
// sha256), refuses a folder holding the user's files of those names, and a run that has not finished is marked.

const RUN = { id: '2026-01-01T00:00:00.000Z-p1', startedAt: '2026-01-01T00:00:00.000Z' };
const folder = () => mkdtempSync(join(tmpdir(), 'cb-report-set-'));
const CB_JSON = JSON.stringify({ tool: { name: 'ceilingbench', version: '0.1.0' } });

/** A set as a run leaves it: its files, then the manifest. */
function writeSet(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  sealReportSet(dir, RUN);
}

describe('only ceilingbench’s own files are removed', () => {
  it('refuses `--out docs` holding the user’s own index.html and summary.md, touching nothing', () => {
    const docs = folder();
    writeFileSync(join(docs, 'index.html'), '<h1>my project</h1>');
    writeFileSync(join(docs, 'summary.md'), '# my notes');
    expect(() => clearReportSet(docs)).toThrow(
      expect.objectContaining({
        code: 'CB_REPORT_FOLDER',
        message: expect.stringMatching(/holds summary\.md, index\.html, which ceilingbench did not write/),
      }),
    );
    expect(readFileSync(join(docs, 'index.html'), 'utf8')).toBe('<h1>my project</h1>');
    expect(readFileSync(join(docs, 'summary.md'), 'utf8')).toBe('# my notes');
  });

  it('refuses a reports/ symlinked to a folder of the user’s files, touching nothing', () => {
    const root = folder();
    const site = join(root, 'site');
    mkdirSync(site);
    writeFileSync(join(site, 'index.html'), 'the site');
    symlinkSync(site, join(root, 'reports'));
    expect(() => clearReportSet(join(root, 'reports'))).toThrow(/did not write/);
    expect(readFileSync(join(site, 'index.html'), 'utf8')).toBe('the site');
  });

  it('removes the previous set it wrote (listed, unchanged) and leaves every other file', () => {
    const dir = folder();
    writeSet(dir, { 'ceilingbench.json': CB_JSON, 'summary.md': '# results', 'index.html': '<html>' });
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    clearReportSet(dir);
    expect(existsSync(join(dir, 'ceilingbench.json'))).toBe(false);
    expect(existsSync(join(dir, 'index.html'))).toBe(false);
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('mine');
  });

  it('refuses a listed file the user replaced since (its bytes are not what ceilingbench wrote)', () => {
    const dir = folder();
    writeSet(dir, { 'ceilingbench.json': CB_JSON, 'summary.md': '# results' });
    writeFileSync(join(dir, 'summary.md'), '# my edited summary');
    expect(() => clearReportSet(dir)).toThrow(/holds summary\.md/);
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toBe('# my edited summary');
    expect(existsSync(join(dir, 'ceilingbench.json'))).toBe(true);
  });

  it('replaces a set written before the manifest existed (its ceilingbench.json is a ceilingbench report)', () => {
    const dir = folder();
    writeFileSync(join(dir, 'ceilingbench.json'), CB_JSON);
    writeFileSync(join(dir, 'index.html'), '<html>');
    clearReportSet(dir);
    expect(existsSync(join(dir, 'index.html'))).toBe(false);
  });
});

describe('a run in progress is visible', () => {
  it('a started run marks the previous set `running` until its own is sealed `finished`', () => {
    const dir = folder();
    writeSet(dir, { 'ceilingbench.json': CB_JSON });
    expect(unfinishedRunNote(join(dir, 'ceilingbench.json'))).toBeUndefined();
    const next = { id: '2026-01-02T00:00:00.000Z-p2', startedAt: '2026-01-02T00:00:00.000Z' };
    markRunStarted(dir, next);
    // killed here: the folder says so
    expect(readReportSetManifest(dir)?.run).toEqual({ ...next, state: 'running' });
    expect(unfinishedRunNote(join(dir, 'ceilingbench.json'))).toMatch(
      /the run 2026-01-02T00:00:00\.000Z-p2 .* did not finish \(state: running/,
    );
    // the previous files stay listed: the next run may still replace them
    clearReportSet(dir);
    expect(existsSync(join(dir, 'ceilingbench.json'))).toBe(false);
    writeFileSync(join(dir, 'ceilingbench.json'), CB_JSON);
    sealReportSet(dir, next);
    expect(readReportSetManifest(dir)?.run.state).toBe('finished');
    expect(readReportSetManifest(dir)?.files.map((f) => f.name)).toEqual(['ceilingbench.json']);
  });

  it('a run that writes no set puts the previous manifest back; a folder of foreign files is not marked', () => {
    const dir = folder();
    writeSet(dir, { 'ceilingbench.json': CB_JSON });
    const before = readReportSetManifest(dir);
    markRunStarted(dir, { id: 'x', startedAt: 'y' });
    restoreManifest(dir, before);
    expect(readReportSetManifest(dir)).toEqual(before);
    const docs = folder();
    writeFileSync(join(docs, 'index.html'), 'mine');
    markRunStarted(docs, RUN);
    expect(existsSync(join(docs, REPORT_SET_MANIFEST))).toBe(false);
  });
});

describe('the report set is scrubbed of the run’s secrets before it is sealed', () => {
  it('removes a key echoed in any case or escaping from every file, and the files stay readable', async () => {
    const { scrubReportSet } = await import('../../reporters/projections/report-set.js');
    const dir = folder();
    const key = 'sk-live-0123456789abcdef';
    writeFileSync(
      join(dir, 'ceilingbench.json'),
      JSON.stringify({ issue: `HTTP 401: key ${key.toLowerCase()} / sk\\u002dlive\\u002d0123456789abcdef` }),
    );
    writeFileSync(join(dir, 'summary.md'), `- first API failure: ${encodeURIComponent(key.toUpperCase())}`);
    scrubReportSet(dir, [key]);
    const json = JSON.parse(readFileSync(join(dir, 'ceilingbench.json'), 'utf8'));
    expect(json.issue).toBe('HTTP 401: key *** / ***');
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toBe('- first API failure: ***');
  });
});
