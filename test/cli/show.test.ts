import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import type { Report } from '../../src/schema/report.js';
import { simReport } from '../report/merge-support.js';

// `ceilingbench show`: a report's example trials in the terminal, the first divergent step marked.

let file: string;
let report: Report;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cb-show-'));
  report = await simReport({ spec: 'sim:retention?p=0.8', runSeed: 0, tasks: ['d2'], trials: 8, levels: [5, 30] });
  file = join(dir, 'ceilingbench.json');
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
}, 60_000);

async function cli(argv: string[], tty = false) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { stdout: (t) => out.push(t), stderr: (t) => err.push(t), tty });
  return { code, out: out.join(''), err: err.join('') };
}

describe('ceilingbench show', () => {
  it('prints the failing examples of a cell with the trace beside the canonical one and its divergent step', async () => {
    const { code, out, err } = await cli(['show', file, '--project', 'd2', '--level', '30', '--n', '2']);
    expect(err).toBe('');
    expect(code).toBe(0);
    const cell = report.cells.find((c) => c.level === 30);
    const first = cell?.examples?.[0];
    expect(first?.kind).toBe('reasoning');
    expect(out).toContain('d2 · N=30');
    expect(out).toContain(`reasoning · seed ${first?.seed} · trial ${first?.trialIndex} · k* ${first?.kStar}`);
    // the divergent row: its step number, the model's and the canonical state, the words that mark it
    const at = first?.trace?.steps.find((s) => s.step === first.trace?.divergence);
    const row = out.split('\n').find((l) => l.startsWith('>'));
    expect(row).toMatch(new RegExp(`^>\\s+${first?.kStar} `));
    expect(row).toContain(at?.model ?? '?');
    expect(row).toContain(at?.canonical ?? '?');
    expect(row).toContain('← first divergent step');
    expect(out).toContain('wrong answer');
    expect(out).toContain(`prompt sha256 ${first?.promptSha256}`);
    // at most --n examples of the one cell asked for; plain output has no escape sequence
    expect(out.match(/^ {2}reasoning · seed/gm)?.length).toBe(2);
    expect(out).not.toContain('N=5');
    expect(out).not.toContain('\u001b');
  });

  it('highlights the divergent step on a terminal, and only with escape sequences of its own', async () => {
    const { code, out } = await cli(['show', file, '--level', '30', '--n', '1'], true);
    expect(code).toBe(0);
    const row = out.split('\n').find((l) => l.startsWith('\u001b[1;31m>'));
    expect(row).toBeDefined();
    expect(row).toContain('← first divergent step\u001b[0m');
  });

  it('never passes the model’s control characters to the terminal', async () => {
    const tampered = structuredClone(report);
    const example = tampered.cells.find((c) => c.level === 30)?.examples?.[0];
    if (!example?.answer) throw new Error('fixture: no answer');
    example.answer.text = 'evil \u001b]0;pwned\u0007 \u001b[2J \u202e text';
    const path = join(mkdtempSync(join(tmpdir(), 'cb-show-evil-')), 'ceilingbench.json');
    writeFileSync(path, JSON.stringify(tampered));
    for (const tty of [false, true]) {
      const { out } = await cli(['show', path, '--level', '30', '--n', '1'], tty);
      expect(out).toContain('evil \\u001b]0;pwned\\u0007 \\u001b[2J \\u202e text');
      expect(out).not.toContain('\u001b]');
      expect(out).not.toContain('\u001b[2J');
      expect(out).not.toContain('\u202e');
    }
  });

  it('takes --outcome to show another kind', async () => {
    const { code, out } = await cli(['show', file, '--level', '5', '--outcome', 'correct', '--n', '1']);
    expect(code).toBe(0);
    expect(out).toContain('d2 · N=5');
    expect(out).toMatch(/^ {2}correct · seed/m);
    expect(out).toContain('right answer');
  });

  it('says an unknown project, level or outcome is a usage error (exit 2) with the nearest names', async () => {
    const project = await cli(['show', file, '--project', 'd3x']);
    expect(project.code).toBe(2);
    expect(project.err).toContain("--project: no cells of 'd3x' in this report; did you mean 'd2'?");
    const outcome = await cli(['show', file, '--outcome', 'reasonin']);
    expect(outcome.code).toBe(2);
    expect(outcome.err).toContain("did you mean 'reasoning'?");
    const level = await cli(['show', file, '--level', '7']);
    expect(level.code).toBe(2);
    expect(level.err).toContain('its levels are 5, 30');
    const n = await cli(['show', file, '--n', '0']);
    expect(n.code).toBe(2);
  });

  it('says so when the report kept no examples', async () => {
    const bare = structuredClone(report);
    for (const cell of bare.cells) delete cell.examples;
    const path = join(mkdtempSync(join(tmpdir(), 'cb-show-bare-')), 'ceilingbench.json');
    writeFileSync(path, JSON.stringify(bare));
    const { code, err } = await cli(['show', path]);
    expect(code).toBe(2);
    expect(err).toContain('CEILINGBENCH_EXAMPLES=3');
  });
});
