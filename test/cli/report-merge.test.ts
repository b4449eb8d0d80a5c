import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { reportSchema } from '../../src/schema/report.js';
import { simReport } from '../report/merge-support.js';

// `ceilingbench report` with several files or a folder: the runs merged into one report set (JSON, summary.md,
// JUnit, HTML) with their leaderboard, and the pairing of every pair of runs said on stdout.

const SPECS = ['sim:retention?p=0.95', 'sim:retention?p=0.90', 'sim:retention?p=0.80'];

let root: string;
const files: string[] = [];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'cb-report-merge-'));
  for (const [i, spec] of SPECS.entries()) {
    // the third run uses another seed: its instances are not the others'
    const report = await simReport({ spec, runSeed: i === 2 ? 1 : 0, tasks: ['d1'], trials: 12, levels: [5, 10, 15] });
    const dir = join(root, 'runs', `job-${i}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'ceilingbench.json'), `${JSON.stringify(report, null, 2)}\n`);
    files.push(join(dir, 'ceilingbench.json'));
  }
}, 60_000);

async function cli(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { stdout: (t) => out.push(t), stderr: (t) => err.push(t) });
  return { code, out: out.join(''), err: err.join('') };
}

describe('ceilingbench report <folder> --out', () => {
  it('merges every ceilingbench.json under the folder into one report set, and says which runs are paired', async () => {
    const out = join(root, 'merged');
    const result = await cli(['report', join(root, 'runs'), '--out', out, '--resamples', '200']);
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    for (const name of ['ceilingbench.json', 'summary.md', 'junit.xml', 'index.html']) {
      expect(existsSync(join(out, name))).toBe(true);
    }
    expect(result.out).toContain('merged 3 runs, 3 subjects, 1 projects');
    const rel = (i: number) => files[i].slice(process.cwd().length + 1);
    const name = (i: number) => (files[i].startsWith(process.cwd()) ? rel(i) : files[i]);
    expect(result.out).toContain(
      `runs ${name(0)} and ${name(1)} are paired: seed 0, 3 shared cells with the same trial counts and instance seeds — paired tests used`,
    );
    expect(result.out).toContain(
      `runs ${name(0)} and ${name(2)} are not paired: seeds 0 and 1; instance seeds differ (d1/d1 L=5) — unpaired tests used`,
    );
    expect(result.out).toMatch(/d1\/d1: sim:retention\?p=0\.9\d? vs sim:retention\?p=0\.80 — unpaired: level 5: /);
    expect(result.out).toMatch(/\n {2}1 {4}sim:retention\?p=0\.95 {2}p_d 0\.\d{4} \[/);
    const merged = reportSchema.parse(JSON.parse(readFileSync(join(out, 'ceilingbench.json'), 'utf8')));
    expect(merged.leaderboard?.projects[0].boards[0].entries.map((e) => e.subject)).toEqual(SPECS);
    expect(merged.cells).toHaveLength(9);
    for (const spec of SPECS) expect(merged.cells.filter((c) => c.subject === spec)).toHaveLength(3);
    const junit = readFileSync(join(out, 'junit.xml'), 'utf8');
    expect(junit).toContain('name="d1 standard L=5 · sim:retention?p=0.80"');
  }, 60_000);

  it('two files name them in the pairing line; without --out it is a usage error (2)', async () => {
    const missing = await cli(['report', files[0], files[1]]);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/merging several reports needs --out <dir>/);
    const out = join(root, 'two');
    const ok = await cli(['report', files[0], files[1], '--out', out, '--resamples', '200']);
    expect(ok.code).toBe(0);
    expect(ok.out).toContain('merged 2 runs, 2 subjects');
  }, 60_000);

  it('the same run twice is a usage error naming both files', async () => {
    const copy = join(root, 'copy.json');
    writeFileSync(copy, readFileSync(files[0]));
    const result = await cli(['report', files[0], copy, '--out', join(root, 'dup')]);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/sim:retention\?p=0\.95 \(run seed 0\): cell d1 d1 .* both hold it/);
  });

  it('a folder without reports is a usage error', async () => {
    const empty = join(root, 'empty');
    mkdirSync(empty);
    const result = await cli(['report', empty, '--out', join(root, 'x')]);
    expect(result.code).toBe(2);
    expect(result.err).toContain('no ceilingbench.json under this folder');
  });
});
