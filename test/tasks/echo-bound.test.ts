import { describe, expect, it } from 'vitest';
import {
  bounded,
  boundIssues,
  ECHO_MAX,
  ISSUE_MAX,
  ISSUES_BUDGET,
  LIST_MAX,
  listBounded,
} from '../../src/tasks/echo.js';
import { gradeResponse } from '../../src/tasks/final-answer.js';
import { generateCell } from '../../src/tasks/instances.js';
import { apiOutcome, type TrialOutcome } from '../../src/tasks/outcome.js';
import { resolveTask } from '../../src/tasks/registry.js';
import type { AnyTaskPlugin } from '../../src/tasks/task.js';

const MB = 1 << 20;

/** Answers of about 1 MB, shaped to reach every place a grader quotes the answer or lists per-item issues. */
const GARBAGE: Record<string, string> = {
  brackets: '['.repeat(MB),
  'closed brackets': `[${'[1, 2], '.repeat(MB / 8)}[1]]`,
  'answer: a huge state': `TRACE:\nStep 1: [[1]]\nANSWER: [[${'1,'.repeat(MB / 2)}]]`,
  'answer: a huge register value': `TRACE:\nStep 1: [A=1]\nANSWER: [A=${'1'.repeat(MB)}, B=2, C=3, D=4, E=5, F=6, G=7]`,
  'answer: a huge list': `ANSWER: [${'"q", '.repeat(MB / 5)}"q"]`,
  'many malformed D1 steps': `TRACE:\n${'Step 1: [[1,2,3],[4,5,6],[7,8,x]]\n'.repeat(MB / 36)}ANSWER: [[1,2,3],[4,5,6],[7,8,9]]`,
  'many malformed D2 steps': `TRACE:\n${'Step 1: [A=1, B=2, C=3]\n'.repeat(MB / 25)}ANSWER: [A=1, B=2]`,
  'many moves': `moves = [${'[1, "A", "Q"], '.repeat(MB / 15)}[1, "A", "B"]]`,
  'a huge move': `moves = [[${'1'.repeat(MB)}, "A", "B"]]`,
  'a huge number': `The count is ${'9'.repeat(MB)}`,
  'an unclosed reasoning block': `<think>${'['.repeat(MB)}`,
};

const totalLength = (outcome: TrialOutcome): number => outcome.issues.reduce((sum, issue) => sum + issue.length, 0);

function gradeAll(task: AnyTaskPlugin, level: number): Array<{ garbage: string; outcome: TrialOutcome }> {
  const [instance] = generateCell(task, level, 1);
  if (!instance) throw new Error(`no ${task.id} instance at level ${level}`);
  return Object.entries(GARBAGE).map(([garbage, text]) => ({ garbage, outcome: task.grade(instance, text) }));
}

describe('a 1 MB garbage answer gives bounded issues', () => {
  // the paper profile of D1 quotes every step's grid (grid integrity); D2 quotes malformed register states
  const cases: Array<[string, number, Record<string, unknown>?]> = [
    ['d1', 5],
    ['d1', 50],
    ['d2', 5],
    ['d2', 50],
    ['hanoi', 1],
    ['hanoi', 6],
    ['rubik', 6],
    ['crypt', 3],
    ['count', 32],
  ];
  it.each(cases)('%s at level %i: every garbage answer, issues under 4 KB', (id, level) => {
    for (const { garbage, outcome } of gradeAll(resolveTask(id), level)) {
      expect(
        totalLength(outcome),
        `${id} ${level} ${garbage}: ${outcome.issues.join(' | ').slice(0, 400)}`,
      ).toBeLessThan(4096);
      expect(JSON.stringify(outcome).length, `${id} ${garbage}: whole outcome`).toBeLessThan(8192);
    }
  });

  it("D1's paper profile quotes each step's grid, at most ECHO_MAX characters of it, and lists the first steps", () => {
    const task = resolveTask('d1');
    const [instance] = generateCell(task, 5, 1, { profile: 'paper' });
    if (!instance) throw new Error('no instance');
    const grid = `[[${'7, '.repeat(MB / 3)}7]]`;
    const outcome = task.grade(instance, `TRACE:\n${`Step 1: ${grid}\n`.repeat(40)}ANSWER: ${grid}`);
    expect(outcome.kind).toBe('constraint');
    // 20 steps, the count of the other 20, the answer's issue and the trace note
    expect(outcome.issues).toHaveLength(LIST_MAX + 3);
    expect(outcome.issues[LIST_MAX]).toBe('… and 20 more steps breaking a constraint');
    for (const issue of outcome.issues) expect(issue.length).toBeLessThan(ECHO_MAX + 80);
    expect(outcome.issues[0]).toMatch(/^step 1: grid integrity: \[\[7, 7, .* … \[\d+ chars cut\] … .*7, 7\]\] is not/);
  });

  it('a rubik answer of 200,000 illegal tokens lists the first LIST_MAX and counts the rest', () => {
    const task = resolveTask('rubik');
    const [instance] = generateCell(task, 3, 1);
    if (!instance) throw new Error('no instance');
    const outcome = task.grade(instance, `moves = [${'"q", '.repeat(200_000)}"q"]`);
    expect(outcome.kind).toBe('fail');
    expect(outcome.kStar).toBe(1);
    expect(outcome.issues).toHaveLength(LIST_MAX + 1);
    expect(outcome.issues.at(-1)).toBe(`… and ${200_001 - LIST_MAX} more illegal move tokens`);
  });

  it('a well-formed wrong answer keeps its issues as before (nothing is cut)', () => {
    const task = resolveTask('d2');
    const [instance] = generateCell(task, 5, 1);
    if (!instance) throw new Error('no instance');
    const canonical = task.canonicalResponse(instance);
    const wrong = canonical.replace(/ANSWER:[^\n]*$/, 'ANSWER: [A=1, B=1, C=1, D=1, E=1, F=1, G=1]');
    const outcome = task.grade(instance, wrong);
    expect(outcome.issues.join('\n')).not.toMatch(/chars cut|more steps/);
    expect(outcome.issues[0]).toMatch(/^wrong answer \[a=1,b=1,c=1,d=1,e=1,f=1,g=1\]$/);
  });
});

describe('the registry backstop: every graded outcome passes boundIssues', () => {
  const base = resolveTask('count');
  const echoing: AnyTaskPlugin = {
    ...base,
    id: 'echoing',
    // a plugin that quotes the whole answer, again and again
    grade: (_instance, text) => ({ ...base.grade(_instance, '7'), issues: Array.from({ length: 100 }, () => text) }),
  };

  it("a plugin's issues of 100 MB come back within ISSUES_BUDGET, each within ISSUE_MAX", () => {
    const [instance] = generateCell(base, 32, 1);
    const outcome = gradeResponse(echoing, instance, 'x'.repeat(MB));
    expect(totalLength(outcome)).toBeLessThanOrEqual(ISSUES_BUDGET + 100);
    for (const issue of outcome.issues) expect(issue.length).toBeLessThanOrEqual(ISSUE_MAX);
    expect(outcome.issues.at(-1)).toMatch(/^… and \d+ more issues$/);
  });

  it("an api outcome keeps the head of a provider's error message, at most ISSUE_MAX characters", () => {
    const page = `HTTP 502: <html>${'<p>bad gateway</p>'.repeat(100_000)}</html>`;
    const [issue] = apiOutcome('ccb', page, 1).issues;
    expect(issue.length).toBeLessThanOrEqual(ISSUE_MAX);
    expect(issue.startsWith('HTTP 502: <html><p>bad gateway</p>')).toBe(true);
    expect(apiOutcome('ccb', 'connection reset', 1).issues).toEqual(['connection reset']);
  });
});

describe('the bounding helpers', () => {
  it('bounded keeps head and tail around a marker, max characters in all', () => {
    const text = `${'a'.repeat(500)}${'b'.repeat(500)}`;
    const cut = bounded(text, 100);
    expect(cut).toHaveLength(100);
    expect(cut).toMatch(/^a+ … \[\d+ chars cut\] … b+$/);
    const [, cutCount] = /\[(\d+) chars cut\]/.exec(cut) ?? [];
    expect(cut.replace(/ … \[\d+ chars cut\] … /, '').length + Number(cutCount)).toBe(text.length);
    expect(bounded(text, 1000)).toBe(text);
    expect(bounded(text, 5)).toMatch(/^ … \[\d+ chars cut\] … $/);
  });

  it('bounded never splits a surrogate pair', () => {
    const text = '😀'.repeat(300);
    const cut = bounded(text, 101);
    expect(cut.replace(/ … \[\d+ chars cut\] … /, '')).toMatch(/^(😀)+$/u);
  });

  it('listBounded lists the first items and counts the rest', () => {
    expect(listBounded(['a', 'b'], 'things')).toEqual(['a', 'b']);
    expect(listBounded(['a', 'b', 'c'], 'things', 2)).toEqual(['a', 'b', '… and 1 more things']);
  });

  it('boundIssues returns issues within bounds unchanged (the same array)', () => {
    const issues = ['one', 'two'];
    expect(boundIssues(issues)).toBe(issues);
  });
});
