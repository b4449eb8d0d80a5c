import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadSccLog, recordedText } from '../../src/subjects/replay/scc-log.js';
import { auditResponse, auditTable, isStrictSingleInteger } from '../../src/tasks/count/audit.js';
import { parseLastInteger } from '../../src/tasks/count/parse.js';

const trialsPath = fileURLToPath(new URL('../../fixtures/scc/logs/closed.jsonl', import.meta.url));

describe('format audit categories (Table S2 / S4 examples)', () => {
  it.each([
    ['32', undefined, 'single-integer'],
    [' 32\n', undefined, 'single-integer'],
    ['+7', undefined, 'single-integer'],
    ['', undefined, 'blank'],
    ['  \n', undefined, 'blank'],
    ['', 'length', 'token-limit'],
    ['Let me think about the structure of the', 'length', 'token-limit'],
    ['a, a, a, a, a, a, a, a, a, a, a', undefined, 'prompt-echo'],
    [
      'I need to count all the "a" items.\n\nRow 1: a, a, a, a, a, a, a, a, a, a (10)\nRow 2: a, a, a, a, a (15)\n\n15',
      undefined,
      'step-by-step',
    ],
    ['32 Be sure to dominate your code.', undefined, 'extra-prose'],
    ['इस अनुक्रम में "a" अक्षर की संख्या 313 है।', undefined, 'extra-prose'],
    ['30 ```python\ns = "a, a"\nprint(len(s.split(",")))\n```', undefined, 'code-markdown'],
    ['</think> Okay, step 1: there are 2 boxes', undefined, 'reasoning-tag'],
    ['no idea', undefined, 'no-number'],
    ['500$', undefined, 'stray-punctuation'],
    ['**105**', undefined, 'stray-punctuation'],
  ] as const)('%j → %s', (text, finishReason, category) => {
    expect(auditResponse(text, { finishReason: finishReason ?? null })).toBe(category);
  });

  it('marks a transport error without text as api (missing data)', () => {
    expect(auditResponse('', { transportError: true })).toBe('api');
  });

  it('uses the strict regex of Supplementary Note 4', () => {
    expect(isStrictSingleInteger('-12')).toBe(true);
    expect(isStrictSingleInteger('12.')).toBe(false);
    expect(isStrictSingleInteger('３２')).toBe(true);
  });
});

describe('format audit of the 44 released closed-model logs', () => {
  it('flags 286 non-strict responses of 4,959, 252 of them still parsed (scc.md §13)', async () => {
    const responses = [];
    for (const [model, log] of await loadSccLog(trialsPath)) {
      for (const trial of log.trials) {
        const text = recordedText(trial);
        const cut =
          trial.response_status === 'incomplete' && (trial.response_detail ?? '').startsWith('max_output_tokens');
        const category = auditResponse(text, {
          finishReason: cut ? 'length' : null,
          transportError: trial.response_status === 'error',
        });
        responses.push({ model, category, parsed: parseLastInteger(text) !== null });
      }
    }
    const table = auditTable(responses);
    const flagged = table.filter((row) => row.category !== 'single-integer');
    expect(responses).toHaveLength(4959);
    expect(flagged.reduce((s, r) => s + r.cases, 0)).toBe(286);
    expect(flagged.reduce((s, r) => s + r.parsed, 0)).toBe(252);
    // Table S2's overthinking row (all four models are closed ones): 27 cases, 4 models, none parsed.
    expect(table.find((r) => r.category === 'token-limit')).toEqual({
      category: 'token-limit',
      cases: 27,
      parsed: 0,
      models: 4,
    });
    expect(table).toMatchSnapshot();
  });
});
