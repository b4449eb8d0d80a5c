import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AgentTrial } from '../../src/assays/scc-secondary/schema.js';
import { agentThreshold } from '../../src/assays/scc-secondary/thresholds.js';
import {
  agentInstance,
  agentPlugin,
  buildAgentTask,
  countMarkersInText,
  extractJsonObject,
  isStrictJsonOnly,
  MAX_BRACE_STARTS,
  markerSequence,
  parsePythonLiteral as parseLiteral,
  pythonDictLiteral,
  pythonInt,
  scoreAgentInstance,
} from '../../src/tasks/scc-secondary/index.js';

function dictLiteralParses(text: string): boolean {
  return pythonDictLiteral(text) !== null;
}
function parsePythonLiteral(text: string): unknown {
  try {
    return parseLiteral(text);
  } catch {
    return undefined;
  }
}

describe('extract_json_object', () => {
  it.each([
    ['{"a": 1}', { a: 1 }],
    ['  {"a": 1}\n', { a: 1 }],
    ['Here you go:\n```json\n{"a": 2}\n```\nDone.', { a: 2 }],
    ['```\n{"a": 3}\n```', { a: 3 }],
    ['Answer: {"a": {"b": [1, 2]}, "c": "}"} thanks', { a: { b: [1, 2] }, c: '}' }],
    ['{"a": "\\"{"} trailing', { a: '"{' }],
    ['[1, 2] then {"ok": true}', { ok: true }],
    ['{bad} {"good": 1}', { good: 1 }],
  ])('finds the object in %j', (text, value) => {
    const result = extractJsonObject(text);
    expect(result).toEqual({ ok: true, value });
  });

  it.each(['', '   ', 'no json here', '[1, 2, 3]', '{"unterminated": ', "{'a': }", '{"a": true,}'])(
    'reports no object in %j',
    (text) => {
      expect(extractJsonObject(text).ok).toBe(false);
    },
  );

  it.each([
    ["{'count': 12, 'ok': True, 'none': None}", { count: 12, ok: true, none: null }],
    [
      "Result: {'ids': ['T01-02', 'T01-03',], 'n': -3.5e1, 't': (1, 2)}",
      { ids: ['T01-02', 'T01-03'], n: -35, t: [1, 2] },
    ],
    ["{'s': 'it\\'s\\n', \"k\": 1_000}", { s: "it's\n", k: 1000 }],
    ["{1: 'a', '__proto__': 2}", { '1': 'a', ['__proto__']: 2 }],
  ])('falls back to ast.literal_eval for %j', (text, value) => {
    const result = extractJsonObject(text);
    expect(result.ok).toBe(true);
    if (result.ok) expect(JSON.stringify(result.value)).toBe(JSON.stringify(value));
    expect(isStrictJsonOnly(text, result.ok)).toBe(false);
  });

  it('refuses what literal_eval refuses', () => {
    for (const text of [
      "{'a': true}",
      "{'a': {1, 2}}",
      "{'a': b'x'}",
      "{'a': 1} extra",
      "{'a': '''x'''}",
      "{'a': 01x}",
    ])
      expect(dictLiteralParses(text)).toBe(false);
    expect(parsePythonLiteral(`${'['.repeat(300)}${']'.repeat(300)}`)).toBeUndefined();
  });

  it('prefers the fenced object, then the whole text, then the first balanced object', () => {
    expect(extractJsonObject('{"x": 1} and ```json {"y": 2} ```')).toEqual({ ok: true, value: { y: 2 } });
    expect(extractJsonObject('{"outer": {"inner": 1}}')).toEqual({ ok: true, value: { outer: { inner: 1 } } });
  });

  it('finds any JSON object embedded in prose (property)', () => {
    const json = fc.dictionary(
      fc.string({ minLength: 1, maxLength: 8 }),
      fc.oneof(fc.integer(), fc.string(), fc.boolean(), fc.array(fc.integer(), { maxLength: 3 })),
      { maxKeys: 4 },
    );
    fc.assert(
      fc.property(
        fc.string().filter((s) => !/[{}`]/.test(s)),
        json,
        fc.string().filter((s) => !/[{}`]/.test(s)),
        (pre, obj, post) => {
          const result = extractJsonObject(`${pre}${JSON.stringify(obj)}${post}`);
          expect(result).toEqual({ ok: true, value: obj });
        },
      ),
      { numRuns: 300 },
    );
  });

  // Timing (ms per size): bench/linearity-suite.ts, `npx tsx bench/run.ts --only linearity`.
  it('finds no object in adversarial input (200k unmatched braces, long fences)', () => {
    expect(extractJsonObject('{'.repeat(200_000)).ok).toBe(false);
    expect(extractJsonObject('```json {'.repeat(20_000) + '}'.repeat(20_000)).ok).toBe(false);
    expect(extractJsonObject(`${'{"a":'.repeat(50_000)}1`).ok).toBe(false);
  });

  it('tries at most MAX_BRACE_STARTS brace starts (the bound that keeps the scan linear; the authors try every one)', () => {
    const behind = (unmatched: number) => extractJsonObject(`x ${'{'.repeat(unmatched)} {"a": 1}`);
    expect(behind(MAX_BRACE_STARTS - 1)).toEqual({ ok: true, value: { a: 1 } });
    expect(behind(MAX_BRACE_STARTS).ok).toBe(false);
  });

  it('strict JSON-only means the stripped text is exactly one object', () => {
    expect(isStrictJsonOnly(' {"a": 1} ', true)).toBe(true);
    expect(isStrictJsonOnly('Sure: {"a": 1}', true)).toBe(false);
    expect(isStrictJsonOnly('```json\n{"a": 1}\n```', true)).toBe(false);
    expect(isStrictJsonOnly('{"a": 1}', false)).toBe(false);
  });
});

describe('Python int() on JSON values', () => {
  it.each([
    [12, 'none', 12],
    [12.9, 'none', 12],
    [-12.9, 'none', -12],
    [' 42 ', 'none', 42],
    ['1_000', 'none', 1000],
    ['12.0', 'none', null],
    ['', 'none', null],
    [true, 'none', null],
    [true, 'int', 1],
    [null, 'none', null],
    [[1], 'none', null],
  ] as const)('int(%j) with booleans=%s → %j', (value, booleans, expected) => {
    expect(pythonInt(value, booleans)).toBe(expected);
  });
});

describe('agent scoring (build_record)', () => {
  const task = buildAgentTask(17, 0);
  const wrap = (payload: unknown) => JSON.stringify(payload);

  it('scores every field of a perfect copy_then_agent answer', () => {
    const instance = agentInstance('copy_then_agent', task, 51, 17);
    const score = scoreAgentInstance(instance, JSON.stringify(instance.answer));
    expect(score).toMatchObject({
      parseable: true,
      strictJson: true,
      formatContract: true,
      markerCountCorrect: true,
      copyExact: true,
      copiedMarkerCount: 51,
      externalizationSuccess: true,
      taskCorrect: true,
      taskFieldScore: 1,
    });
  });

  it('keeps the task correct while the count is wrong (gpt-5.4 pattern) and flags prose wrapping', () => {
    const instance = agentInstance('agent_count_insert', task, 245, 17);
    const text = `Here is the result:\n${wrap({ ...task.expected, marker_count: 250 })}`;
    const score = scoreAgentInstance(instance, text);
    expect(score).toMatchObject({ parseable: true, strictJson: false, markerCountCorrect: false, taskCorrect: true });
    expect(score.parsedMarkerCount).toBe(250);
    expect(gradeKind(instance, text)).toBe('inexact');
  });

  it('review ids must keep encounter order; balances are compared per account', () => {
    const instance = agentInstance('agent_baseline', task, 0, 17);
    const reordered = { ...task.expected, review_ids: [...task.expected.review_ids].reverse() };
    expect(scoreAgentInstance(instance, wrap(reordered))).toMatchObject({
      reviewIdsCorrect: false,
      taskCorrect: false,
    });
    const stringBalances = { ...task.expected, final_balances: { A: '142', B: 99, C: 66, D: 0 } };
    expect(scoreAgentInstance(instance, wrap(stringBalances)).finalBalancesCorrect).toBe(true);
    expect(scoreAgentInstance(instance, wrap({ ...task.expected, extra: 1 }))).toMatchObject({
      schemaExact: false,
      extraKeys: ['extra'],
      taskCorrect: true,
    });
  });

  it('an empty answer fails every applicable field and leaves the others null', () => {
    const score = scoreAgentInstance(agentInstance('copy_externalize', null, 91, 17), '');
    expect(score).toMatchObject({ parseable: false, externalizationSuccess: false, markerCountCorrect: false });
    expect(score.taskCorrect).toBeNull();
  });

  it('counts copied markers as comma-separated pieces equal to the marker', () => {
    expect(countMarkersInText(markerSequence(7))).toBe(7);
    expect(countMarkersInText('a,a , a,b,,a')).toBe(4);
    expect(countMarkersInText('  ')).toBe(0);
  });
});

function gradeKind(instance: ReturnType<typeof agentInstance>, text: string) {
  return agentPlugin.grade(instance, text).kind;
}

describe('Table S10 thresholds', () => {
  const trial = (markerCount: number, right: boolean): AgentTrial => ({
    condition: 'copy_then_agent',
    taskIndex: 0,
    markerCount,
    answered: true,
    parseable: true,
    strictJson: true,
    formatContract: true,
    parsedMarkerCount: null,
    markerCountCorrect: right,
    copyExact: right,
    copiedMarkerCount: null,
    externalizationSuccess: right,
    finalBalancesCorrect: true,
    reviewIdsCorrect: true,
    netTotalCorrect: true,
    nextActionCorrect: true,
    taskCorrect: true,
    countOrCopyCorrect: right,
    inputTokens: null,
    outputTokens: null,
    text: '',
  });

  it("reads claude-sonnet-4-6's copy_then_agent pattern: 91 last full, 196 all-fail, recovery at 251", () => {
    const pattern: [number, number][] = [
      [51, 6],
      [91, 6],
      [144, 2],
      [196, 0],
      [251, 1],
      [303, 0],
    ];
    const trials = pattern.flatMap(([level, right]) => Array.from({ length: 6 }, (_, i) => trial(level, i < right)));
    expect(agentThreshold('copy_then_agent', trials)).toEqual({
      condition: 'copy_then_agent',
      levels: 6,
      trialsPerLevel: 6,
      lastFullSuccess: 91,
      firstFailure: 144,
      firstAllFail: 196,
      recoveries: [251],
      taskSuccessRate: 1,
    });
  });

  it('with one trial per level the last full success can lie above the first failure (gpt-5.4 copy)', () => {
    const trials = [trial(91, true), trial(159, false), trial(199, true), trial(245, false)];
    expect(agentThreshold('copy_then_agent', trials)).toMatchObject({
      lastFullSuccess: 199,
      firstFailure: 159,
      firstAllFail: 159,
      recoveries: [199],
    });
  });

  it('ignores missing-data trials', () => {
    const missing = { ...trial(51, false), answered: false };
    expect(agentThreshold('copy_then_agent', [missing, trial(91, true)])).toMatchObject({
      levels: 1,
      lastFullSuccess: 91,
      firstFailure: null,
    });
  });
});
