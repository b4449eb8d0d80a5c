import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../src/cli/program.js';

// `grade --responses`: bulk audit of a provider's logged outputs (issue 27, part 6).

const dir = mkdtempSync(join(tmpdir(), 'ceilingbench-responses-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.unstubAllEnvs());

const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

async function run(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { stdout: (t) => out.push(t), stderr: (t) => err.push(t) });
  return { code, out: out.join(''), err: err.join('') };
}

async function canonical(task: string, axis: string, level: number, seed: number): Promise<string> {
  const { out } = await run(['generate', task, `--${axis}`, String(level), '--seed', String(seed), '--json']);
  return JSON.parse(out).canonical.response;
}

const jsonl = (rows: unknown[]) => rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n');

describe('ceilingbench grade --responses', () => {
  it('grades each line on its own; malformed lines are classified per line and never sink the rest', async () => {
    const right = await canonical('d1', 'depth', 5, 50000);
    const other = await canonical('d1', 'depth', 6, 60000);
    const path = file(
      'log.jsonl',
      jsonl([
        { response: right, finish_reason: 'stop' },
        { response: `<think>${right}</think>\nI give up.`, finish_reason: 'stop', reasoning_content: 'hmm' },
        '{"response": "unterminated',
        '',
        { answer: right },
        { response: right, finish_reason: 'length', depth: 6, seed: 60000 },
        { response: other, depth: 6, seed: 60000 },
        { response: right, finish_reason: 'content_filter' },
        { response: right, seed: 'x' },
        { response: `<|channel|>analysis<|message|>${right}<|end|>`, finish_reason: 'length' },
        { response: right, finish_reason: 'eos' },
      ]),
    );
    const { code, out, err } = await run([
      'grade',
      'd1',
      '--depth',
      '5',
      '--seed',
      '50000',
      '--responses',
      path,
      '--json',
    ]);
    expect(code, err).toBe(0);
    const rows = out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const byLine = new Map(rows.map((r) => [r.line, r]));
    expect(rows.map((r) => r.line)).toEqual([1, 2, 3, 5, 6, 7, 8, 9, 10, 11]);
    expect(byLine.get(1)).toMatchObject({ outcome: 'correct', answerCorrect: true });
    expect(byLine.get(1).reasoning).toBeUndefined();
    expect(byLine.get(2)).toMatchObject({ outcome: 'format', reasoning: { sources: ['provider', 'inline'] } });
    expect(byLine.get(3)).toMatchObject({ error: 'json' });
    expect(byLine.get(5)).toMatchObject({ error: 'shape' });
    // a line's own depth and seed name its instance: the depth-5 answer is wrong there, the depth-6 one right
    expect(byLine.get(6).outcome).not.toBe('correct');
    expect(byLine.get(7)).toMatchObject({ outcome: 'correct' });
    expect(byLine.get(8)).toMatchObject({ outcome: 'api' });
    expect(byLine.get(9)).toMatchObject({ error: 'instance' });
    expect(byLine.get(9).message).toMatch(/--seed must be a non-negative integer/);
    expect(byLine.get(10)).toMatchObject({ outcome: 'truncation', reasoning: { unclosed: true } });
    expect(byLine.get(11)).toMatchObject({ error: 'shape' });
  });

  it('a file without instance flags needs them on every line; readable output without --json', async () => {
    const right = await canonical('hanoi', 'level', 2, 1);
    const path = file('h.jsonl', jsonl([{ response: right, level: 2, seed: 1 }, { response: right }]));
    const { code, out } = await run(['grade', 'hanoi', '--responses', path]);
    expect(code).toBe(0);
    expect(out).toMatch(/^line 1: pass\nline 2: error \(instance\): missing --level/);
  });

  it('CEILINGBENCH_REASONING_TAGS reaches grade: a user block is set aside, a malformed value exits 2', async () => {
    const right = await canonical('d1', 'depth', 5, 50000);
    const other = await canonical('d1', 'depth', 6, 60000);
    // a draft after the answer, in a block only the user's template knows: read as the answer without the tag
    const text = `${right}\n<scratch>\nWait, maybe:\n${other}\n</scratch>`;
    const path = file('s.jsonl', jsonl([{ response: text }]));
    const argv = ['grade', 'd1', '--depth', '5', '--seed', '50000', '--responses', path, '--json'];
    expect(JSON.parse((await run(argv)).out).outcome).not.toBe('correct');
    vi.stubEnv('CEILINGBENCH_REASONING_TAGS', '<scratch>|</scratch>');
    expect(JSON.parse((await run(argv)).out).outcome).toBe('correct');
    const single = file('s.txt', text);
    const one = await run(['grade', 'd1', '--depth', '5', '--seed', '50000', '--response', single, '--json']);
    expect(JSON.parse(one.out).outcome).toBe('correct');
    vi.stubEnv('CEILINGBENCH_REASONING_TAGS', '<scratch>');
    const bad = await run(argv);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/CEILINGBENCH_REASONING_TAGS: '<scratch>' is not an open\|close pair/);
  });

  it.each([
    [['--response', 'a.txt', '--responses', 'b.jsonl'], /not both/],
    [['--responses', '/nonexistent/x.jsonl'], /cannot read --responses/],
    [['--responses', 'x.jsonl', '--finish-reason', 'stop'], /a --responses line carries its own finish_reason/],
  ])('usage error %j → exit 2', async (flags, message) => {
    const { code, err } = await run(['grade', 'd1', '--depth', '5', '--seed', '50000', ...flags]);
    expect(code).toBe(2);
    expect(err).toMatch(message);
  });
});
