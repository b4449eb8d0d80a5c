import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type RunConfig, resolveRunConfig } from '../../src/config/resolve.js';
import { runTotals } from '../../src/plan/amount.js';
import { buildPlan } from '../../src/plan/build.js';
import { selectProjects } from '../../src/plan/projects.js';
import { formatPlanTable } from '../../src/plan/table.js';
import { type Plan, type PlanAmount, type PlanTotals, planSchema } from '../../src/schema/plan.js';
import { subjectLabels } from '../../src/subjects/label.js';

const PRICE = { input: 0.15, cachedInput: 0.075, output: 0.6 };

/** A run of these subjects, as CEILINGBENCH_SUBJECTS names them. */
async function runOf(subjects: string[], prices: RunConfig['prices'] = {}, trials = 1): Promise<RunConfig> {
  const root = mkdtempSync(join(tmpdir(), 'cb-plan-subjects-'));
  const env = {
    CEILINGBENCH_CACHE_DIR: join(root, 'cache'),
    CEILINGBENCH_SUBJECTS: JSON.stringify(subjects),
    CEILINGBENCH_TRIALS: String(trials),
  };
  return { ...(await resolveRunConfig({ root, env })), prices };
}

const BOUNDS = ['low', 'expected', 'high'] as const;

/** The sum of the subjects' totals, bound by bound (null where one is null), compared with the run's. */
function expectRunSum(plan: Plan) {
  const parts = plan.subjects.map((s) => s.totals.amount);
  for (const key of ['calls', 'promptTokens', 'outputTokens'] as const) {
    for (const bound of BOUNDS) {
      const values = parts.map((p) => p[key][bound]);
      const sum = values.some((v) => v === null) ? null : values.reduce<number>((a, b) => a + (b ?? 0), 0);
      expect(plan.totals.amount[key][bound], `${key}.${bound}`).toBe(sum);
    }
  }
  const counts = (pick: (t: PlanTotals) => number | null) => plan.subjects.map((s) => pick(s.totals));
  expect(plan.totals.trials).toBe(counts((t) => t.trials).reduce<number>((a, b) => a + (b ?? 0), 0));
  expect(plan.totals.cached).toBe(counts((t) => t.cached).reduce<number>((a, b) => a + (b ?? 0), 0));
}

describe('a plan of several subjects', () => {
  it('plans every subject as a plan of it alone would, under the names the run gives its projects', async () => {
    const specs = ['openai:gpt-4o-mini', 'oracle'];
    const config = await runOf(specs, { 'gpt-4o-mini': PRICE });
    const plan = await buildPlan({ config, env: {}, projects: ['d1', 'd2'] });
    const labels = subjectLabels(specs);
    expect(plan.subjects.map((s) => [s.spec, s.label])).toEqual(specs.map((spec, i) => [spec, labels[i]]));
    expect(plan.projects.map((p) => p.name)).toEqual(labels.flatMap((l) => [`d1@${l}`, `d2@${l}`]));
    expect(plan.subject.spec).toBe(specs[0]);

    for (const [i, spec] of specs.entries()) {
      const alone = await buildPlan({
        config: { ...config, subject: spec, subjects: [spec] },
        env: {},
        projects: ['d1', 'd2'],
      });
      const mine = plan.subjects[i];
      expect(mine.totals).toEqual(alone.totals);
      expect([mine.price, mine.tokenizer, mine.cache]).toEqual([alone.price, alone.tokenizer, alone.cache]);
      const projects = plan.projects.filter((p) => p.subject === spec);
      expect(projects.map((p) => p.name)).toEqual(mine.projects);
      expect(projects.map((p) => ({ ...p, name: p.name.split('@')[0] }))).toEqual(alone.projects);
      for (const note of mine.notes) expect(plan.notes).toContain(note);
    }
    // the priced subject's cost is the run's: the oracle sends nothing and bills nothing
    expect(plan.subjects[1].totals.amount.costUsd).toBeNull();
    expect(plan.totals.amount.costUsd).toEqual(plan.subjects[0].totals.amount.costUsd);
    expectRunSum(plan);
  });

  it('the run total is the sum of its subjects’ plans (property over trials, seeds, prices)', async () => {
    const price = fc.record({
      input: fc.double({ min: 0, max: 100, noNaN: true }),
      output: fc.double({ min: 0, max: 100, noNaN: true }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 2 }),
        fc.integer({ min: 0, max: 3 }),
        price,
        price,
        async (trials, seed, a, b) => {
          const config = await runOf(
            ['openai:gpt-4o-mini', 'openai:llama-3.1-8b'],
            { 'gpt-4o-mini': a, 'llama-3.1-8b': b },
            trials,
          );
          const plan = await buildPlan({ config: { ...config, seed }, env: {}, projects: ['d2', 'd3'] });
          expect(() => planSchema.parse(plan)).not.toThrow();
          expectRunSum(plan);
          const costs = plan.subjects.map((s) => s.totals.amount.costUsd);
          for (const bound of BOUNDS) {
            const values = costs.map((c) => c?.[bound] ?? null);
            const sum = values.some((v) => v === null) ? null : values.reduce<number>((x, y) => x + (y ?? 0), 0);
            if (sum === null) expect(plan.totals.amount.costUsd?.[bound]).toBeNull();
            else expect(plan.totals.amount.costUsd?.[bound]).toBeCloseTo(sum, 10);
          }
        },
      ),
      { numRuns: 4 },
    );
  });

  it('a subject that bills and has no price leaves the run’s cost unknown — "no price", never a partial sum', async () => {
    const config = await runOf(['openai:gpt-4o-mini', 'openai:gpt-4o'], { 'gpt-4o-mini': PRICE });
    const plan = await buildPlan({ config: { ...config, limits: { maxCost: 1 } }, env: {}, projects: ['d1'] });
    expect(plan.subjects[0].totals.amount.costUsd?.expected).toBeGreaterThan(0);
    expect(plan.subjects[1].totals.amount.costUsd).toBeNull();
    expect(plan.totals.amount.costUsd).toBeNull();
    const notes = plan.notes.join('\n');
    expect(notes).toMatch(/the run total has no cost: openai:gpt-4o has no price \(the priced ones come to \$/);
    expect(notes).toMatch(/--max-cost \$1\.00: not compared \(no price\)/);
    const table = formatPlanTable(plan);
    expect(table).toMatch(/^run total \(2 subjects\)\s+20\s+0\s+[\d,]+\s+[\d,]+\s+no price$/m);
    expect(table).toMatch(/^total gpt-4o-mini\s+10\s+0\s+[\d,]+\s+[\d,]+\s+\$/m);
  });

  it('the spending limits are compared with the run’s total, of the subjects that send requests', async () => {
    const config = await runOf(['openai:gpt-4o-mini', 'openai:gpt-4o', 'sim:default'], {
      'gpt-4o-mini': PRICE,
      'gpt-4o': PRICE,
    });
    // one subject's 10 d1 calls are within 15; the two openai subjects' 20 are not; the sim's are not counted
    const plan = await buildPlan({ config: { ...config, limits: { maxCalls: 15 } }, env: {}, projects: ['d1'] });
    expect(plan.subjects.map((s) => s.totals.amount.calls.expected)).toEqual([10, 10, 10]);
    expect(plan.totals.amount.calls.expected).toBe(30);
    const notes = plan.notes.join('\n');
    expect(notes).toMatch(/--max-calls 15: even the low end 20 is above it/);
    expect(notes).toMatch(/count the requests of the openai: and module: subjects.*sim:default sends none/);
    const within = await buildPlan({ config: { ...config, limits: { maxCalls: 20 } }, env: {}, projects: ['d1'] });
    expect(within.notes.join('\n')).toMatch(/--max-calls 20: the whole range is within it/);
  });

  it('a module: subject (a function) sends requests: counted against the limits, its tokens those it is given', async () => {
    const config = await runOf(['module:./pipeline.ts#agent', 'sim:default']);
    const plan = await buildPlan({ config: { ...config, limits: { maxCalls: 15 } }, env: {}, projects: ['d1'] });
    expect(plan.subjects.map((s) => s.kind)).toEqual(['function', 'sim']);
    const notes = plan.notes.join('\n');
    expect(notes).toMatch(/module:\.\/pipeline\.ts#agent is your own function: these are the tokens of the prompts/);
    expect(notes).toMatch(/no price for module:\.\/pipeline\.ts#agent/);
    expect(notes).toMatch(/--max-calls 15: the whole range is within it/);
    expect(notes).toMatch(/sim:default sends none/);
  });

  it('the table: a block per subject, its projects as the run names them, its total, then the run total', async () => {
    const config = await runOf(['openai:gpt-4o-mini', 'oracle'], { 'gpt-4o-mini': PRICE });
    const plan = await buildPlan({ config, env: {}, projects: ['d2', 'benchmarks'] });
    const lines = formatPlanTable(plan).split('\n');
    const at = (pattern: RegExp) => lines.findIndex((l) => pattern.test(l));
    const order = [
      /^openai:gpt-4o-mini · price per 1M tokens: input \$0\.15/,
      /^d2@gpt-4o-mini\s+10\s/,
      /^benchmarks@gpt-4o-mini\s+not estimated$/,
      /^total gpt-4o-mini \(estimated projects\)\s+10\s/,
      /^oracle · price: none \(tokens only\)/,
      /^d2@oracle\s+10\s/,
      /^total oracle \(estimated projects\)\s+10\s.*no price$/,
      /^run total \(2 subjects\) \(estimated projects\)\s+20\s.*\$/,
    ].map(at);
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(lines[0]).toMatch(/^ceilingbench plan · 2 subjects · 1 trials per cell/);
    expect(plan.totals.complete).toBe(false);
  });
});

describe('selectProjects: --project across subjects, as the run selects them', () => {
  it('one subject: the names as written', () => {
    expect(selectProjects(['d2', 'benchmarks'], [null])).toEqual([
      [
        { base: 'd2', name: 'd2' },
        { base: 'benchmarks', name: 'benchmarks' },
      ],
    ]);
  });

  it('several: a plain name for every subject, <project>@<pattern> for the labels it matches', () => {
    const labels = ['gpt-4o-mini', 'gpt-4o', 'oracle'];
    const names = (names: string[]) => selectProjects(names, labels).map((list) => list.map((p) => p.name));
    expect(names(['d2'])).toEqual([['d2@gpt-4o-mini'], ['d2@gpt-4o'], ['d2@oracle']]);
    expect(names(['d1@GPT-*', 'd2@oracle'])).toEqual([['d1@gpt-4o-mini'], ['d1@gpt-4o'], ['d2@oracle']]);
    expect(names(['d2', 'd2@*'])).toEqual([['d2@gpt-4o-mini'], ['d2@gpt-4o'], ['d2@oracle']]);
    expect(() => names(['d2@claude'])).toThrow(/'d2@claude' matches no subject of the run/);
    expect(() => names(['@oracle'])).toThrow(/names no project/);
  });
});

describe('runTotals', () => {
  const amount = (calls: number, cost: number | null): PlanAmount => ({
    calls: { low: calls, expected: calls, high: calls },
    promptTokens: { low: calls, expected: null, high: 2 * calls },
    outputTokens: { low: 0, expected: calls, high: 3 * calls },
    costUsd: cost === null ? null : { low: cost, expected: cost, high: 2 * cost },
  });
  const totals = (calls: number, cost: number | null, complete = true): PlanTotals => ({
    trials: calls,
    cached: 0,
    amount: amount(calls, cost),
    complete,
  });

  it('of one subject is that subject’s totals', () => {
    for (const t of [totals(7, 0.5), totals(3, null, false)])
      expect(runTotals([{ bills: true, totals: t }])).toEqual(t);
  });

  it('a subject that sends nothing adds no cost; one that bills unpriced makes it unknown; none priced: unknown', () => {
    const priced = { bills: true, totals: totals(10, 0.25) };
    const free = { bills: false, totals: totals(5, null) };
    const unpriced = { bills: true, totals: totals(4, null) };
    expect(runTotals([priced, free]).amount.costUsd).toEqual({ low: 0.25, expected: 0.25, high: 0.5 });
    expect(runTotals([priced, free]).amount.calls.expected).toBe(15);
    expect(runTotals([priced, unpriced]).amount.costUsd).toBeNull();
    expect(runTotals([free, free]).amount.costUsd).toBeNull();
    expect(runTotals([priced, { bills: true, totals: totals(1, 1, false) }]).complete).toBe(false);
    // a replay priced at its model's price bills nothing in a run with a subject that does; alone, it is its cost
    const replay = { bills: false, totals: totals(5, 2) };
    expect(runTotals([priced, replay]).amount.costUsd).toEqual(priced.totals.amount.costUsd);
    expect(runTotals([replay]).amount.costUsd).toEqual(replay.totals.amount.costUsd);
  });
});
