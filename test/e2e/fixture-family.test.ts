import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runVitest } from '../support/run-vitest.js';

/**
 * The proof that a task family is a declaration: `zigzag` lives only in test/fixture-family (its plugin, one
 * spec, a consumer's vitest config). Registered from the spec, it runs through a sweep, a hard gate and the
 * JSON / JUnit / Markdown / HTML reports like a shipped family — and nothing under src/ names it.
 */
// the runner loader and no results cache: a run writes nothing into the checkout (Vite's cache is in tmpdir)
const CONFIG = ['--config', 'test/fixture-family/vitest.config.ts', '--configLoader', 'runner', '--no-cache'];
const env = (gates: string) => ({
  CEILINGBENCH_SUBJECT: 'sim:default',
  CEILINGBENCH_TRIALS: '40',
  CEILINGBENCH_GATES: gates,
});

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );

describe('a task family defined entirely in test/', () => {
  it('no file under src/ names it', () => {
    const naming = filesUnder(join(ROOT, 'src')).filter((file) => /\bzigzag\b/i.test(readFileSync(file, 'utf8')));
    expect(naming).toEqual([]);
  });

  it('sweeps, fits p_d near its declared sim retention, passes its gate and appears in every report', () => {
    const run = runVitest(CONFIG, { ...env('{"zigzag":{"minRetention":0.8}}'), CEILINGBENCH_HTML: 'true' });
    expect(run.status, run.stderr + run.stdout).toBe(0);

    const report = run.report();
    expect(report.cells.map((c) => [c.task, c.project, c.level, c.n])).toEqual(
      [2, 4, 8, 16].map((level) => ['zigzag', 'zigzag', level, 40]),
    );
    const [fit] = report.fits;
    expect(fit).toMatchObject({ kind: 'retention', task: 'zigzag', project: 'zigzag', status: 'ok' });
    // sim:default applies the plugin's declared simDefault, p = 0.9 per move
    expect(fit.ci95[0]).toBeLessThanOrEqual(0.9);
    expect(fit.ci95[1]).toBeGreaterThanOrEqual(0.9);
    expect(report.gates).toEqual([
      expect.objectContaining({ project: 'zigzag', gate: 'minRetention', mode: 'hard', passed: true }),
    ]);

    const junit = run.junit();
    expect(junit).toMatch(/<testsuite name="zigzag"[^>]* tests="6" failures="0"/);
    for (const level of [2, 4, 8, 16]) expect(junit).toContain(`zigzag · N=${level}"`);
    expect(junit).toMatch(/<property name="p_d" value="0\.\d+"\/>/);

    const summary = readFileSync(join(run.outDir, 'summary.md'), 'utf8');
    expect(summary).toMatch(/\| zigzag\.minRetention \(zigzag\) \| hard \| pass \|/);
    expect(summary).toMatch(/^\| zigzag \| plain \| 0\.\d{3} \|/m);

    const html = readFileSync(join(run.outDir, 'index.html'), 'utf8');
    expect(html).toContain('zigzag');
    const charts = JSON.parse(readFileSync(join(run.outDir, 'charts.vl.json'), 'utf8')) as {
      charts: Array<{ id: string; absentReason: string | null; spec?: unknown }>;
    };
    for (const id of ['accuracy-depth', 'depth-heatmap', 'kstar']) {
      const chart = charts.charts.find((c) => c.id === id);
      expect(chart?.absentReason ?? null, id).toBeNull();
      expect(JSON.stringify(chart?.spec), id).toContain('"zigzag');
    }
  });

  it('a hard gate above the truth fails the run and names the family', () => {
    const run = runVitest(CONFIG, env('{"zigzag":{"minRetention":0.97}}'));
    expect(run.status).toBe(1);
    expect(run.stdout + run.stderr).toMatch(/gate zigzag\.minRetention FAILED \(hard\): zigzag p_d = 0\.\d{3}/);
    expect(run.report().summary.hardGatesFailed).toBe(1);
  });
});
