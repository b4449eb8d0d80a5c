import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstDivergence, traceWindow } from '../../src/assays/sweep/examples.js';
import { runCell } from '../../src/assays/sweep/run-cell.js';
import { cellResultSchema } from '../../src/schema/cell.js';
import { EXAMPLE_BOUNDS, type ExampleLimit } from '../../src/schema/example.js';
import { createSubject } from '../../src/subjects/index.js';
import type { Subject } from '../../src/subjects/subject.js';
import { isMissing, isSuccess } from '../../src/tasks/outcome.js';
import { resolveTask } from '../../src/tasks/registry.js';

// Examples: a bounded, deterministic sample of a cell's trials with what the model wrote.

const d2 = resolveTask('d2');

async function simCell(level: number, trials: number, examples?: ExampleLimit, spec = 'sim:retention?p=0.8') {
  const subject = await createSubject(spec, { seed: 0 });
  return runCell({ project: 'd2', task: d2, level, trials }, subject, {
    concurrency: 4,
    maxMissingFraction: 0.2,
    ...(examples !== undefined ? { examples } : {}),
  });
}

describe('cell examples', () => {
  it('keep up to 3 per outcome kind, failing kinds first, each kind its first trials in trial order', async () => {
    const cell = await simCell(5, 24);
    const examples = cell.examples ?? [];
    expect(cellResultSchema.parse(cell).examples).toEqual(cell.examples);
    const kinds = [...new Set(examples.map((x) => x.kind))];
    expect(kinds.length).toBeGreaterThan(1);
    for (const kind of kinds) {
      const expected = cell.trials
        .filter((t) => t.outcome.kind === kind)
        .slice(0, 3)
        .map((t) => `${t.seed}:${t.trialIndex}`);
      expect(examples.filter((x) => x.kind === kind).map((x) => `${x.seed}:${x.trialIndex}`)).toEqual(expected);
    }
    // the model's failures come before the successes
    const group = (kind: string) => {
      const outcome = cell.trials.find((t) => t.outcome.kind === kind)?.outcome;
      if (!outcome) throw new Error(kind);
      return isSuccess(outcome) ? 2 : isMissing(outcome) ? 1 : 0;
    };
    const groups = kinds.map(group);
    expect(groups).toEqual([...groups].sort((a, b) => a - b));
    expect(groups[0]).toBe(0);
  });

  it('mark the first divergent step: the grader’s k* for a wrong answer, earlier steps equal, that step differs', async () => {
    const cell = await simCell(20, 20, 'all');
    const wrong = (cell.examples ?? []).filter((x) => x.kind === 'reasoning');
    expect(wrong.length).toBeGreaterThan(0);
    for (const example of wrong) {
      const trace = example.trace;
      expect(trace).toBeDefined();
      if (!trace) continue;
      expect(trace.divergence).toBe(example.kStar);
      const at = trace.steps.find((s) => s.step === trace.divergence);
      expect(at?.model).not.toBe(at?.canonical);
      for (const s of trace.steps.filter((s) => s.step < trace.divergence)) expect(s.model).toBe(s.canonical);
      expect(trace.answer.matches).toBe(false);
      expect(example.answer?.chars).toBeGreaterThan(0);
      expect(example.promptSha256).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it("are deterministic; 0 keeps none (no field), 'all' keeps every trial", async () => {
    const a = await simCell(15, 12);
    const b = await simCell(15, 12);
    expect(JSON.stringify(a.examples)).toBe(JSON.stringify(b.examples));
    expect((await simCell(15, 12, 0)).examples).toBeUndefined();
    expect((await simCell(15, 12, 'all')).examples?.length).toBe(12);
    expect((await simCell(15, 12, 1)).examples?.length).toBe(new Set(a.trials.map((t) => t.outcome.kind)).size);
  });

  it('bound what the model wrote: a 1 MB answer and reasoning keep their lengths and a few hundred characters', async () => {
    const huge = `<think>${'r'.repeat(500_000)}</think>${'x'.repeat(1_000_000)}\u001b[31m`;
    const subject: Subject = {
      identity: { spec: 'test:huge', kind: 'sim', parameters: {} },
      async answer() {
        return {
          kind: 'answer',
          text: huge,
          finishReason: 'stop',
          usage: null,
          latencyMs: 0,
          cacheHit: false,
          attempts: 1,
        };
      },
    };
    const cell = await runCell({ project: 'd2', task: d2, level: 5, trials: 2 }, subject, {
      concurrency: 1,
      maxMissingFraction: 0.2,
    });
    const [example] = cell.examples ?? [];
    expect(example.kind).toBe('format');
    expect(example.answer?.chars).toBe(1_000_000 + 5);
    expect(example.answer?.text.length).toBeLessThanOrEqual(EXAMPLE_BOUNDS.answer);
    expect(example.reasoning?.chars).toBe(500_000);
    expect(example.reasoning?.text.length).toBeLessThanOrEqual(EXAMPLE_BOUNDS.reasoning);
    expect(JSON.stringify(cell.examples).length).toBeLessThan(10_000);
  });

  it('keep the missing-data trials without an answer (no response came)', async () => {
    const subject: Subject = {
      identity: { spec: 'test:down', kind: 'sim', parameters: {} },
      async answer() {
        return { kind: 'error', error: 'HTTP 503', latencyMs: 0, attempts: 3 };
      },
    };
    const cell = await runCell({ project: 'd2', task: d2, level: 5, trials: 4 }, subject, {
      concurrency: 1,
      maxMissingFraction: 1,
    });
    expect(cell.examples?.map((x) => x.kind)).toEqual(['api', 'api', 'api']);
    expect(cell.examples?.[0].answer).toBeUndefined();
    expect(cell.examples?.[0].issues).toEqual(['HTTP 503']);
  });
});

describe('traceWindow', () => {
  const state = fc.constantFrom('a', 'b', 'c', 'x'.repeat(500));
  it('shows the first divergent step with at most `window` steps either side, every state bounded', () => {
    fc.assert(
      fc.property(fc.array(state, { maxLength: 30 }), fc.array(state, { minLength: 1, maxLength: 30 }), (m, c) => {
        const comparison = {
          model: m.map((s) => ({ state: s })),
          canonical: c,
          answer: { model: null, canonical: 'a' },
        };
        const trace = traceWindow(comparison);
        const d = firstDivergence(comparison);
        expect(trace.divergence).toBe(d);
        expect(trace.steps.length).toBeLessThanOrEqual(2 * EXAMPLE_BOUNDS.window + 1);
        if (d !== -1) expect(trace.steps.map((s) => s.step)).toContain(d);
        for (const s of trace.steps) {
          expect((s.model ?? '').length).toBeLessThanOrEqual(EXAMPLE_BOUNDS.state);
          expect((s.canonical ?? '').length).toBeLessThanOrEqual(EXAMPLE_BOUNDS.state);
        }
        expect(trace.answer.matches).toBe(false);
      }),
    );
  });
});
