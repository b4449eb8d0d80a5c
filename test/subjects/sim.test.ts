import { describe, expect, it } from 'vitest';
import { PyRandom } from '../../src/rng/index.js';
import { countTokens } from '../../src/spend/tokenizer.js';
import {
  createSubject,
  knobsFor,
  parseSubjectSpec,
  type Subject,
  type TrialRequest,
} from '../../src/subjects/index.js';
import type { SimSpec } from '../../src/subjects/spec.js';
import { resolveTask } from '../../src/tasks/registry.js';
import { type AnyTaskPlugin, stepwiseSim } from '../../src/tasks/task.js';
import { fakeCountPlugin as countPlugin, fakeResolve, fakeStepsPlugin as stepsPlugin } from '../support/fake-tasks.js';

const fakeStepsPlugin: AnyTaskPlugin = stepsPlugin;
const fakeCountPlugin: AnyTaskPlugin = countPlugin;

function requestFor(task: AnyTaskPlugin, level: number, seed: number, trialIndex: number): TrialRequest {
  const instance = task.generate(new PyRandom(seed), level, { seed });
  return {
    taskId: task.id,
    instance,
    prompt: task.render(instance),
    trialIndex,
    maxOutputTokens: task.maxOutputTokens(level),
  };
}

async function answers(subject: Subject, requests: TrialRequest[]): Promise<string[]> {
  const out: string[] = [];
  for (const request of requests) {
    const response = await subject.answer(request);
    if (response.kind !== 'answer') throw new Error(response.kind === 'error' ? response.error : response.reason);
    out.push(response.text);
  }
  return out;
}

const sim = (spec: string) => createSubject(spec, { resolveTask: fakeResolve });

describe('sim subjects', () => {
  it('are deterministic per trial and independent of scheduling order', async () => {
    const requests = Array.from({ length: 40 }, (_, i) => requestFor(fakeStepsPlugin, 6, 100 + (i % 10), i >> 2));
    const subject = await sim('sim:retention?p=0.7&seed=5');
    const forward = await answers(subject, requests);
    const again = await answers(await sim('sim:retention?p=0.7&seed=5'), requests);
    const reversed = (await answers(subject, [...requests].reverse())).reverse();
    const concurrent = await Promise.all(requests.map(async (r) => subject.answer(r)));
    expect(again).toEqual(forward);
    expect(reversed).toEqual(forward);
    expect(concurrent.map((r) => (r.kind === 'answer' ? r.text : ''))).toEqual(forward);
    // replicates of one instance are distinct draws, and another seed gives other draws
    expect(new Set(forward.filter((_, i) => i % 10 === 0)).size).toBeGreaterThan(1);
    expect(await answers(await sim('sim:retention?p=0.7&seed=6'), requests)).not.toEqual(forward);
  });

  it('answers in the task format with P(correct | N) = p^N when recover = 0', async () => {
    const p = 0.9;
    const subject = await sim(`sim:retention?p=${p}`);
    for (const depth of [1, 4, 12]) {
      const trials = 2000;
      let correct = 0;
      for (let t = 0; t < trials; t++) {
        const request = requestFor(fakeStepsPlugin, depth, depth * 10000 + (t % 50), Math.floor(t / 50));
        const response = await subject.answer(request);
        if (response.kind !== 'answer') throw new Error('sim never errors');
        const outcome = fakeStepsPlugin.grade(request.instance, response.text);
        expect(outcome.kind).not.toBe('format');
        if (outcome.kind === 'correct') correct++;
      }
      const expected = p ** depth;
      const sd = Math.sqrt((expected * (1 - expected)) / trials);
      expect(Math.abs(correct / trials - expected)).toBeLessThan(4 * sd + 1e-9);
    }
  });

  it('recover lets diverged runs end right (more correct answers, same traces)', async () => {
    const requests = Array.from({ length: 400 }, (_, i) => requestFor(fakeStepsPlugin, 8, 500 + (i % 20), i));
    const score = async (spec: string) => {
      const texts = await answers(await sim(spec), requests);
      return texts.filter((text, i) => fakeStepsPlugin.grade(requests[i].instance, text).kind === 'correct').length;
    };
    const without = await score('sim:retention?p=0.8');
    const withRecover = await score('sim:retention?p=0.8&recover=0.5');
    expect(without / 400).toBeCloseTo(0.8 ** 8, 1);
    expect(withRecover).toBeGreaterThan(without + 50);
  });

  it('format faults are unparseable, truncation faults are cut with finish_reason length', async () => {
    const requests = Array.from({ length: 1000 }, (_, i) => requestFor(fakeStepsPlugin, 4, 900 + (i % 25), i));
    const subject = await sim('sim:retention?p=1&format=0.2&trunc=0.1');
    let unparseable = 0;
    let cut = 0;
    for (const request of requests) {
      const r = await subject.answer(request);
      if (r.kind !== 'answer') throw new Error('sim never errors');
      const canonical = fakeStepsPlugin.canonicalResponse(request.instance);
      if (!fakeStepsPlugin.parse(r.text).ok) unparseable++;
      if (r.finishReason === 'length') {
        cut++;
        expect(canonical.startsWith(r.text)).toBe(true);
        expect(r.text.length).toBeLessThan(canonical.length);
      } else if (fakeStepsPlugin.parse(r.text).ok) {
        expect(r.text).toBe(canonical); // p = 1: every other answer is exact
      }
      // a model bills its text as the tokenizer counts it; a cut answer used its whole budget
      expect(r.usage?.completionTokens).toBe(
        r.finishReason === 'length' ? request.maxOutputTokens : countTokens(r.text),
      );
    }
    // truncations are drawn among the 80% that were not format faults: expected 0.2 + 0.8·0.1·P(cut unparseable)
    expect(unparseable / 1000).toBeGreaterThan(0.17);
    expect(cut / 1000).toBeGreaterThan(0.05);
    expect(cut / 1000).toBeLessThan(0.11);
  });

  it('cuts an answer longer than the output budget and reports length', async () => {
    const request = { ...requestFor(fakeStepsPlugin, 12, 1, 0), maxOutputTokens: 3 };
    const r = await (await sim('sim:retention?p=1')).answer(request);
    const canonical = fakeStepsPlugin.canonicalResponse(request.instance);
    expect(canonical.length).toBeGreaterThan(12);
    expect(r).toMatchObject({ kind: 'answer', finishReason: 'length', text: canonical.slice(0, 12) });
  });

  it('sim:counting uses capacity: exact below, attractors above', async () => {
    const subject = await sim('sim:counting?cc=96');
    const low = await subject.answer(requestFor(fakeCountPlugin, 64, 1, 0));
    const high = await subject.answer(requestFor(fakeCountPlugin, 512, 1, 0));
    expect(low).toMatchObject({ kind: 'answer', text: '64' });
    expect(high.kind === 'answer' && ['100', '500', '1000'].includes(high.text)).toBe(true);
  });

  it('sim:default applies what each registered plugin declares (the documented mix)', () => {
    const spec = parseSubjectSpec('sim:default') as SimSpec;
    expect(knobsFor(spec, resolveTask('d1')).retention).toBe(0.95);
    expect(knobsFor(spec, resolveTask('d2')).retention).toBe(0.95);
    expect(knobsFor(spec, resolveTask('d3')).retention).toBe(0.8);
    expect(knobsFor(spec, resolveTask('hanoi')).retention).toBe(0.9);
    expect(knobsFor(spec, resolveTask('count'))).toEqual({ retention: 1, recover: 0, capacity: 96 });
    const declared = { ...stepsPlugin, simDefault: stepwiseSim(0.5) } as AnyTaskPlugin;
    expect(knobsFor(spec, declared).retention).toBe(0.5);
  });
});

describe('oracle', () => {
  it('answers every instance with the canonical response, graded correct', async () => {
    const oracle = await createSubject('oracle', { resolveTask: fakeResolve });
    for (const [task, levels] of [
      [fakeStepsPlugin, [1, 2, 4, 8, 16]],
      [fakeCountPlugin, [8, 64, 512]],
    ] as const) {
      for (const level of levels) {
        for (let seed = 0; seed < 5; seed++) {
          const request = requestFor(task, level, seed, 0);
          const r = await oracle.answer(request);
          expect(r).toMatchObject({
            kind: 'answer',
            text: task.canonicalResponse(request.instance),
            finishReason: 'stop',
          });
          if (r.kind === 'answer') expect(['correct', 'exact']).toContain(task.grade(request.instance, r.text).kind);
        }
      }
    }
  });

  it('scores 100% on the registered count plugin through the real registry', async () => {
    const oracle = await createSubject('oracle');
    const task = resolveTask('count');
    for (const level of task.levels.values.slice(0, 4)) {
      const request = requestFor(task, level, level, 0);
      const r = await oracle.answer(request);
      if (r.kind !== 'answer') throw new Error(r.kind === 'error' ? r.error : r.reason);
      expect(task.grade(request.instance, r.text).kind).toBe('exact');
    }
  });
});
