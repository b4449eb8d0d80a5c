import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { centeredMovingAverage, dualDesign, olsSlope } from '../../src/assays/scc-secondary/index.js';
import { PyRandom } from '../../src/rng/index.js';
import {
  countForTargetTokens,
  DUAL_CONDITIONS,
  dualInstance,
  dualPlugin,
  estimatePromptTokens,
  makeIrrelevantCode,
  markerSequence,
  scoreDualResponse,
} from '../../src/tasks/scc-secondary/index.js';

describe('length-matched controls (count_scatter_control_common.py)', () => {
  it('the code block is the shortest that reaches the target token estimate, and deterministic', () => {
    for (const target of [1, 37, 400, 812]) {
      const code = makeIrrelevantCode(target, `23:64:pooled:irrelevant_code:x:0`);
      expect(estimatePromptTokens(code)).toBeGreaterThanOrEqual(target);
      const lines = code.split('\n');
      expect(lines[0]).toBe('def unused_transform(values):');
      expect(lines[lines.length - 1]).toBe('    return total');
      expect(makeIrrelevantCode(target, `23:64:pooled:irrelevant_code:x:0`)).toBe(code);
    }
    expect(makeIrrelevantCode(400, 'a')).not.toBe(makeIrrelevantCode(400, 'b'));
  });

  it('the b count is the fewest markers whose sequence reaches the target (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3000 }), (target) => {
        const n = countForTargetTokens(target);
        expect(estimatePromptTokens(markerSequence(n))).toBeGreaterThanOrEqual(target);
        if (n > 1) expect(estimatePromptTokens(markerSequence(n - 1))).toBeLessThan(target);
      }),
    );
  });

  it('the token estimate counts code points, as Python len() does', () => {
    expect(estimatePromptTokens('汉汉汉汉')).toBe(1);
    expect(estimatePromptTokens('𝔸𝔸𝔸𝔸𝔸')).toBe(2);
    expect(estimatePromptTokens('')).toBe(1);
  });
});

describe('dual-task design', () => {
  it('follows the authors order per count: plain, real per secondary, pooled controls', () => {
    const design = dualDesign(23, [32, 33], 2, DUAL_CONDITIONS);
    expect(design.filter((d) => d.count === 32).map((d) => d.condition)).toEqual([
      'plain_count',
      'plain_count',
      'real_task:d2',
      'real_task:d2',
      'real_task:sat',
      'real_task:sat',
      'irrelevant_code',
      'irrelevant_code',
      'dual_counting',
      'dual_counting',
    ]);
    const reals = new Set(
      design.filter((d) => d.condition.startsWith('real') && d.count === 32).map((d) => d.item?.itemId),
    );
    for (const control of design.filter((d) => d.control && d.count === 32)) {
      expect(reals.has(control.item?.itemId)).toBe(true);
      expect(control.control?.matchedItemId).toBe(control.item?.itemId);
      expect(control.control?.distractorTokens).toBeGreaterThanOrEqual(control.control?.matchedTokens ?? Infinity);
    }
    expect(JSON.stringify(dualDesign(23, [32, 33], 2, DUAL_CONDITIONS))).toBe(JSON.stringify(design));
  });

  it('prompts use the authors templates', () => {
    const [plain, d2] = dualDesign(23, [40], 1, ['plain_count', 'real_task:d2']);
    const plainPrompt = dualPlugin.render(dualInstance(plain, 23));
    expect(plainPrompt.system).toMatch(/^You are being evaluated\. Answer the requested task exactly\./);
    expect(plainPrompt.user).toBe(
      `Count the marker sequence. Return JSON with exactly this schema: {"count": <number of a markers>}.\n\nMarker sequence:\n${markerSequence(40)}`,
    );
    const real = dualPlugin.render(dualInstance(d2, 23)).user;
    expect(real.startsWith('You must answer the task and count the marker sequence.')).toBe(true);
    expect(real).toContain('\n\nTask:\nSolve the following task.');
    expect(real).toContain('register-file engine');
    expect(real.endsWith(`Marker sequence:\n${markerSequence(40)}`)).toBe(true);
  });

  it('grades every field: count, b count and the secondary answer by its own grader', () => {
    for (const data of dualDesign(23, [48], 1, DUAL_CONDITIONS)) {
      const instance = dualInstance(data, 23);
      const perfect = scoreDualResponse(data, dualPlugin.canonicalResponse(instance));
      expect(perfect.countCorrect).toBe(true);
      if (data.condition === 'dual_counting') expect(perfect.secondaryCorrect).toBe(true);
      if (data.condition.startsWith('real')) expect(perfect.taskCorrect).toBe(true);
      const wrong = JSON.parse(dualPlugin.canonicalResponse(instance));
      wrong.count = 47;
      if ('task_answer' in wrong) wrong.task_answer = 'I do not know';
      const outcome = dualPlugin.grade(instance, JSON.stringify(wrong));
      expect(outcome.kind).toBe('inexact');
      expect(outcome.issues[0]).toBe('count 47, expected 48');
      if (data.condition.startsWith('real'))
        expect(outcome.issues.some((i) => i.startsWith('task_answer wrong'))).toBe(true);
      expect(dualPlugin.grade(instance, 'forty-eight').kind).toBe('unparsed');
    }
  });
});

describe('smoothing', () => {
  it('is a centred 5-point mean, truncated at the ends', () => {
    expect(centeredMovingAverage([1, 2, 3, 4, 5, 6])).toEqual([2, 2.5, 3, 4, 4.5, 5]);
    expect(centeredMovingAverage([null, 4, null])).toEqual([4, 4, 4]);
    expect(centeredMovingAverage([null])).toEqual([null]);
    expect(() => centeredMovingAverage([1], 4)).toThrow(/odd/);
  });

  it('keeps constants constant and stays within the data range (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -100, max: 100 }), { minLength: 1, maxLength: 40 }), (values) => {
        const smooth = centeredMovingAverage(values);
        const [lo, hi] = [Math.min(...values), Math.max(...values)];
        for (const v of smooth) {
          expect(v).not.toBeNull();
          expect(v as number).toBeGreaterThanOrEqual(lo - 1e-9);
          expect(v as number).toBeLessThanOrEqual(hi + 1e-9);
        }
      }),
    );
  });

  it('OLS slope recovers a line', () => {
    expect(olsSlope([1, 2, 3, 4].map((x) => ({ x, y: 3 * x + 7 })))).toBeCloseTo(3, 12);
    expect(olsSlope([{ x: 1, y: 2 }])).toBeNull();
  });
});

describe('dual plugin simulate', () => {
  it('is exact for every field well under capacity and undercounts past it', () => {
    const knobs = { retention: 1, recover: 0, capacity: 96 };
    const [data] = dualDesign(23, [40], 1, ['real_task:d2']);
    const instance = dualInstance(data, 23);
    expect(dualPlugin.grade(instance, dualPlugin.simulate(instance, new PyRandom(1), knobs)).kind).toBe('exact');
    let signed = 0;
    const [far] = dualDesign(23, [400], 1, ['real_task:d2']);
    for (let s = 0; s < 50; s++)
      signed +=
        scoreDualResponse(far, dualPlugin.simulate(dualInstance(far, 23), new PyRandom(s), knobs)).countError ?? 0;
    expect(signed / 50).toBeLessThan(-20);
  });
});
