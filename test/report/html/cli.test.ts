import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cac } from 'cac';
import { describe, expect, it } from 'vitest';
import { registerReport } from '../../../src/cli/commands/report.js';
import { UsageError } from '../../../src/cli/errors.js';
import { FIXTURE_DIR } from './support.js';

const fixture = (name: string) => fileURLToPath(new URL(name, FIXTURE_DIR));

/** Runs `ceilingbench report …` on a fresh parser, mapping errors to exit codes as runCli does. */
async function runReport(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const io = { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) };
  const cli = cac('ceilingbench');
  registerReport(cli, io);
  let code: number;
  try {
    cli.parse(['node', 'ceilingbench', 'report', ...argv], { run: false });
    code = Number(await cli.runMatchedCommand());
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    err.push(`ceilingbench: ${error.message}\n`);
    code = error.exitCode;
  }
  return { code, out: out.join(''), err: err.join('') };
}

const tempDir = () => mkdtempSync(join(tmpdir(), 'cb-report-'));

describe('ceilingbench report', () => {
  it('writes index.html and charts.vl.json beside the JSON by default', async () => {
    const dir = tempDir();
    copyFileSync(fixture('ceilingbench.json'), join(dir, 'ceilingbench.json'));
    const { code, out } = await runReport([join(dir, 'ceilingbench.json')]);
    expect(code).toBe(0);
    expect(out).toContain(`wrote ${join(dir, 'index.html')}`);
    const html = readFileSync(join(dir, 'index.html'), 'utf8');
    expect(html).toContain('<figure id="chart-accuracy-depth"');
    const specs = JSON.parse(readFileSync(join(dir, 'charts.vl.json'), 'utf8'));
    expect(specs.charts.map((c: { id: string }) => c.id)).toEqual([
      'accuracy-depth',
      'depth-heatmap',
      'kstar',
      'puzzle-collapse',
      'scc-ladder',
      'scc-scatter',
    ]);
    for (const c of specs.charts) expect(c.spec.data.values.length).toBeGreaterThan(0);
    expect(out).toMatch(/not drawn: Per-release history of p_d — no baselines given/);
  });

  it('a record whose result does not match its assay is set aside with a warning naming it; the page is written', async () => {
    const dir = tempDir();
    const raw = JSON.parse(readFileSync(fixture('ceilingbench.json'), 'utf8'));
    raw.scc[0].result.tiers = 'not a list';
    writeFileSync(join(dir, 'ceilingbench.json'), JSON.stringify(raw));
    const { code, out, err } = await runReport([join(dir, 'ceilingbench.json')]);
    expect(code).toBe(0);
    expect(err).toContain(
      `ceilingbench: warning: ${join(dir, 'ceilingbench.json')}: scc record scc/count set aside: its result does not match its assay's schema (field 'tiers':`,
    );
    expect(out).toContain(`wrote ${join(dir, 'index.html')}`);
    expect(readFileSync(join(dir, 'index.html'), 'utf8')).toContain('<figure id="chart-accuracy-depth"');
  });

  it('--out and --baselines: history charts from every valid baseline; invalid ones skipped with a warning', async () => {
    const baselines = tempDir();
    for (const name of ['sim-2026-09.json', 'sim-2026-10.json']) {
      copyFileSync(fixture(`baselines/${name}`), join(baselines, name));
    }
    writeFileSync(join(baselines, 'broken.json'), '{"schemaVersion": 1, "name": ');
    writeFileSync(join(baselines, 'wrong.json'), JSON.stringify({ schemaVersion: 1, name: 'x', runStartedAt: 3 }));
    const out = join(tempDir(), 'site');
    const result = await runReport([fixture('ceilingbench.json'), '--out', out, '--baselines', baselines]);
    expect(result.code).toBe(0);
    expect(result.err).toMatch(/warning: skipping .*broken\.json: not valid JSON/);
    expect(result.err).toMatch(/warning: skipping .*wrong\.json: not a baseline \(runStartedAt:/);
    expect(result.out).toContain('history over 2 baselines');
    const html = readFileSync(join(out, 'index.html'), 'utf8');
    expect(html).toContain('<figure id="chart-history-pd"');
    expect(html).toContain('<figure id="chart-history-cc"');
  });

  it('a truncated JSON file exits 2 and names the file', async () => {
    const dir = tempDir();
    const path = join(dir, 'ceilingbench.json');
    writeFileSync(path, readFileSync(fixture('ceilingbench.json'), 'utf8').slice(0, 5000));
    const { code, err } = await runReport([path]);
    expect(code).toBe(2);
    expect(err).toContain(path);
    expect(err).toMatch(/not valid JSON/);
  });

  it('a schema-invalid report exits 2 and names the first bad field', async () => {
    const dir = tempDir();
    const path = join(dir, 'ceilingbench.json');
    const report = JSON.parse(readFileSync(fixture('ceilingbench.json'), 'utf8'));
    report.cells[3].ci95 = 'wide';
    writeFileSync(path, JSON.stringify(report));
    const { code, err } = await runReport([path]);
    expect(code).toBe(2);
    expect(err).toContain(path);
    expect(err).toMatch(/field 'cells\.3\.ci95'/);
  });

  it('a missing file or a missing baselines folder exits 2 with the fix', async () => {
    const dir = tempDir();
    const missing = await runReport([join(dir, 'nope.json')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/nope\.json: no such file/);
    mkdirSync(join(dir, 'x'));
    const noDir = await runReport([
      fixture('ceilingbench.json'),
      '--out',
      join(dir, 'x'),
      '--baselines',
      join(dir, 'none'),
    ]);
    expect(noDir.code).toBe(2);
    expect(noDir.err).toMatch(/--baselines: .* is not a directory/);
  });
});
