import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) },
    out: () => out.join(''),
    err: () => err.join(''),
  };
}

const dir = mkdtempSync(join(tmpdir(), 'ceilingbench-grade-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

async function json(argv: string[]) {
  const c = capture();
  const code = await runCli(argv, c.io);
  expect(code, c.err()).toBe(0);
  return JSON.parse(c.out());
}

describe('ceilingbench generate', () => {
  it('d1 --depth 5 --seed 50000 --json reproduces the release instance with prompt and canonical response', async () => {
    const out = await json(['generate', 'd1', '--depth', '5', '--seed', '50000', '--json']);
    expect(out).toMatchObject({ task: 'd1', profile: 'official', depth: 5, seed: 50000 });
    expect(out.instance.data.ops).toEqual([
      'REVERSE_GRID',
      'ROTATE_90_CW',
      'SHIFT_ROW_2_LEFT',
      'REVERSE_GRID',
      'SHIFT_COL_1_UP',
    ]);
    expect(out.canonical.trace[4]).toBe('[[2, 4, 1], [9, 8, 5], [7, 6, 3]]');
    expect(out.canonical.answer).toBe('[[2, 4, 1], [9, 8, 5], [7, 6, 3]]');
    expect(out.canonical.response).toMatch(/^1\. TRACE: \["Step 1: \[\[9, 8, 7\]/);
    expect(out.prompt.system).toMatch(/^You are a spatial reasoning engine\./);
    expect(out.prompt.user.split('\n')[0]).toBe('Step 1: REVERSE_GRID');
  });

  it('the seed is the release instance seed: d2 50009 repeats 50000; paper profile and variants apply', async () => {
    const a = await json(['generate', 'd2', '--depth', '5', '--seed', '50009', '--json']);
    const b = await json(['generate', 'd2', '--depth', '5', '--seed', '50000', '--json']);
    expect(a.instance.data).toEqual(b.instance.data);
    const paper = await json(['generate', 'd2', '--depth', '5', '--seed', '50000', '--profile', 'paper', '--json']);
    expect(paper.canonical.answer).toBe('[A=7, B=1, C=2, D=8, E=4, F=5, G=6]');
    const v = await json(['generate', 'd3', '--depth', '15', '--seed', '150000', '--variant', 'B', '--json']);
    expect(v.prompt.system).toContain('P01P02:F');
    const q = await json([
      'generate',
      'd3',
      '--depth',
      '10',
      '--seed',
      '100000',
      '--profile',
      'paper',
      '--query',
      '--json',
    ]);
    expect(q.canonical.answer).toBe('AH:F');
  });

  it('prints a readable form without --json', async () => {
    const c = capture();
    expect(await runCli(['generate', 'd3', '--depth', '5', '--seed', '50000'], c.io)).toBe(0);
    expect(c.out()).toContain('--- user prompt ---\nStep 1: A and H form an ALLIANCE.');
    expect(c.out()).toContain('--- canonical trace ---\nStep 1: [AH:F]');
    expect(c.out()).toContain('--- canonical response ---');
  });

  it.each([
    [['generate', 'd9', '--depth', '5', '--seed', '1'], /unknown task 'd9'; use one of: d1, d2, d3/],
    [['generate', 'd1', '--depth', '5'], /missing --seed/],
    [['generate', 'd1', '--seed', '5'], /missing --depth for task 'd1'; e\.g\. --depth 5/],
    [['generate', 'd1', '--depth', '0', '--seed', '1'], /--depth must be a positive integer, got '0'/],
    [['generate', 'd1', '--depth', 'ten', '--seed', '1'], /--depth must be a positive integer, got 'ten'/],
    [['generate', 'd1', '--depth', '5', '--seed', 'x'], /--seed must be a non-negative integer/],
    [
      ['generate', 'd1', '--depth', '5', '--seed', '1', '--profile', 'fancy'],
      /unknown --profile 'fancy'.*official, paper/,
    ],
    [
      ['generate', 'd1', '--depth', '5', '--seed', '1', '--variant', 'Z'],
      /unknown --variant 'Z'.*standard, verbose, A, B, C/,
    ],
    [['generate', 'd3', '--depth', '5', '--seed', '1', '--query'], /query.*'paper'/],
    [['generate', 'd1', '--depth', '5', '--level', '6', '--seed', '1'], /--depth and --level disagree/],
  ])('usage error %j → exit 2 naming the argument', async (argv, message) => {
    const c = capture();
    expect(await runCli(argv, c.io)).toBe(2);
    expect(c.err()).toMatch(message);
  });
});

describe('ceilingbench grade', () => {
  const base = ['grade', 'd1', '--depth', '5', '--seed', '50000'];
  const trace = [
    '[[9, 8, 7], [6, 5, 4], [3, 2, 1]]',
    '[[3, 6, 9], [2, 5, 8], [1, 4, 7]]',
    '[[3, 6, 9], [5, 8, 2], [1, 4, 7]]',
    '[[7, 4, 1], [2, 8, 5], [9, 6, 3]]',
    '[[2, 4, 1], [9, 8, 5], [7, 6, 3]]',
  ];
  const respond = (steps: string[], answer: string) =>
    `1. TRACE: [${steps.map((s, i) => `"Step ${i + 1}: ${s}"`).join(', ')}]\n2. ANSWER: ${answer}`;

  it('grades the canonical response from generate as correct', async () => {
    const gen = await json(['generate', 'd2', '--depth', '10', '--seed', '100000', '--json']);
    const out = await json([
      'grade',
      'd2',
      '--depth',
      '10',
      '--seed',
      '100000',
      '--response',
      file('c.txt', gen.canonical.response),
      '--json',
    ]);
    expect(out).toEqual({ outcome: 'correct', kStar: -1, tfbc: false, answerCorrect: true, issues: [] });
  });

  it('a lucky guess is correct with TFBC; a divergence is reasoning with k*', async () => {
    const flip = '[[3, 2, 1], [6, 5, 4], [9, 8, 7]]';
    const lucky = [trace[0], flip, ...trace.slice(2)];
    expect(await json([...base, '--response', file('l.txt', respond(lucky, trace[4])), '--json'])).toMatchObject({
      outcome: 'correct',
      kStar: 2,
      tfbc: true,
      answerCorrect: true,
    });
    expect(
      await json([...base, '--response', file('r.txt', respond([...trace.slice(0, 3), flip, flip], flip)), '--json']),
    ).toMatchObject({
      outcome: 'reasoning',
      kStar: 4,
      tfbc: false,
    });
  });

  it('--finish-reason length turns a complete but unanswered trace into truncation; prose is format', async () => {
    const path = file('t.txt', `1. TRACE: [${trace.map((s, i) => `"Step ${i + 1}: ${s}"`).join(', ')}]`);
    expect((await json([...base, '--response', path, '--finish-reason', 'length', '--json'])).outcome).toBe(
      'truncation',
    );
    expect((await json([...base, '--response', path, '--json'])).outcome).toBe('format');
    expect((await json([...base, '--response', file('p.txt', 'I think it rotates a lot.'), '--json'])).outcome).toBe(
      'format',
    );
  });

  it('D3 unordered pair → constraint, printed readably without --json', async () => {
    const path = file('d3.txt', respond(['[HA:F]', '[AH:F, EG:R]'], '[AH:F]'));
    const c = capture();
    expect(await runCli(['grade', 'd3', '--depth', '2', '--seed', '50000', '--response', path], c.io)).toBe(0);
    expect(c.out()).toMatch(
      /^outcome: constraint\nkStar: 1\ntfbc: false\nanswerCorrect: false\nissues:\n {2}- step 1: pair HA/,
    );
  });

  it.each([
    [[...base], /missing --response/],
    [[...base, '--response', '/nonexistent/x.txt'], /cannot read --response '\/nonexistent\/x\.txt'/],
    [[...base, '--response', 'x', '--finish-reason', 'maybe'], /--finish-reason must be one of stop, length/],
    [['grade', 'nope', '--depth', '5', '--seed', '1', '--response', 'x'], /unknown task 'nope'/],
    [['grade', 'd1', '--depth=-3', '--seed', '1', '--response', 'x'], /--depth must be a positive integer, got '-3'/],
  ])('usage error %j → exit 2', async (argv, message) => {
    const c = capture();
    expect(await runCli(argv, c.io)).toBe(2);
    expect(c.err()).toMatch(message);
  });
});
