import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runCell } from '../../src/assays/sweep/run-cell.js';
import { type RunConfig, resolveRunConfig } from '../../src/config/resolve.js';
import { addTokens, priced, type Tokens } from '../../src/plan/amount.js';
import { buildPlan } from '../../src/plan/build.js';
import { budgetChain, ladderPaths } from '../../src/plan/scc.js';
import { type Plan, type PlanAmount, type PlanRange, planSchema } from '../../src/schema/plan.js';
import { countTokens } from '../../src/spend/tokenizer.js';
import { createSubject } from '../../src/subjects/index.js';
import { countPromptTokens } from '../../src/subjects/openai/prompt-tokens.js';
import { generateCell } from '../../src/tasks/instances.js';
import { DEFAULT_LADDER_TASK } from '../../src/tasks/ladder.js';
import { standardProjects } from '../../src/tasks/project-names.js';
import { resolveTask } from '../../src/tasks/registry.js';
import { plannedUnits } from '../../src/tasks/standard-specs.js';
import { type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';

const PRICE = { input: 0.15, cachedInput: 0.075, output: 0.6 };

async function configFor(env: Record<string, string>, prices: RunConfig['prices'] = {}): Promise<RunConfig> {
  const root = mkdtempSync(join(tmpdir(), 'cb-plan-'));
  const config = await resolveRunConfig({ root, env: { CEILINGBENCH_CACHE_DIR: join(root, 'cache'), ...env } });
  return { ...config, prices };
}

const ordered = (r: PlanRange) => r.low <= (r.expected ?? r.low) && (r.expected ?? r.high) <= r.high;
const amountOrdered = (a: PlanAmount) =>
  ordered(a.calls) && ordered(a.promptTokens) && ordered(a.outputTokens) && (a.costUsd === null || ordered(a.costUsd));

/** Every amount of a plan: cells, units, projects and the totals. */
function amounts(plan: Plan): PlanAmount[] {
  return [
    plan.totals.amount,
    ...plan.projects.flatMap((p) => [
      ...(p.amount ? [p.amount] : []),
      ...p.units.flatMap((u) => [u.amount, ...u.cells.map((c) => c.amount)]),
    ]),
  ];
}

function expectSum(whole: PlanAmount, parts: readonly PlanAmount[]) {
  for (const key of ['calls', 'promptTokens', 'outputTokens'] as const) {
    for (const bound of ['low', 'expected', 'high'] as const) {
      const values = parts.map((p) => p[key][bound]);
      const sum = values.some((v) => v === null) ? null : values.reduce<number>((a, b) => a + (b ?? 0), 0);
      expect(whole[key][bound], `${key}.${bound}`).toBe(sum);
    }
  }
  if (whole.costUsd === null) return;
  for (const bound of ['low', 'high'] as const) {
    expect(whole.costUsd[bound]).toBeCloseTo(
      parts.reduce((s, p) => s + (p.costUsd?.[bound] ?? 0), 0),
      10,
    );
  }
}

describe('what the standard projects run', () => {
  it('the plan counts exactly what the shipped spec files declare, each in the file it names', async () => {
    const declared: Record<string, unknown[]> = {};
    let project = '';
    let file = '';
    const record =
      (kind: string) =>
      (...args: unknown[]) => {
        declared[project] = [...(declared[project] ?? []), [file, kind, ...args.filter((a) => a !== undefined)]];
      };
    vi.resetModules();
    vi.doMock('../../src/vitest/index.js', () => ({
      describeSweep: record('sweep'),
      describeAblation: record('ablation'),
    }));
    vi.doMock('../../src/vitest/scc.js', () => ({
      // the ladder's task: the one named, or the default ladder
      testCountingCapacity: (options?: { task?: string }) => record('ladder')(options?.task ?? DEFAULT_LADDER_TASK),
      testMotifAblation: record('scc-motif'),
      testDualTask: record('scc-dual'),
      testAgentOperation: record('scc-agent'),
    }));
    const specs = fileURLToPath(new URL('../../specs/', import.meta.url));
    for (project of standardProjects()) {
      for (const name of readdirSync(join(specs, project)).sort()) {
        file = name.replace(/\.spec\.ts$/, '');
        await import(join(specs, project, name));
      }
    }
    vi.doUnmock('../../src/vitest/index.js');
    vi.doUnmock('../../src/vitest/scc.js');
    // the spec files and what they imported were loaded over the mocks
    vi.resetModules();

    const planned = (name: string) =>
      plannedUnits(name).map((u) => {
        if (u.kind === 'sweep' || u.kind === 'ladder') return [u.file, u.kind, u.task.id];
        if (u.kind === 'ablation') return [u.file, 'ablation', u.task.id, { level: u.level, variants: u.variants }];
        return [u.file, u.kind];
      });
    const sorted = (list: unknown[]) => [...list].map((x) => JSON.stringify(x)).sort();
    for (const name of standardProjects()) expect(sorted(planned(name)), name).toEqual(sorted(declared[name] ?? []));
    expect(Object.keys(declared).sort()).toEqual([...standardProjects()].sort());
  });

  it('a project that is not standard has no units (its spec files decide)', () => {
    expect(plannedUnits('benchmarks')).toEqual([]);
  });
});

describe('buildPlan: a grid from the rendered prompts', () => {
  it('d1 with 2 trials: 10 cells, every prompt token counted, no price → tokens only', async () => {
    const config = await configFor({ CEILINGBENCH_SUBJECT: 'openai:gpt-4o-mini', CEILINGBENCH_TRIALS: '2' });
    const plan = await buildPlan({ config, env: {}, projects: ['d1'] });
    expect(() => planSchema.parse(plan)).not.toThrow();
    const [unit] = plan.projects[0].units;
    expect(unit.cells.map((c) => c.level)).toEqual(resolveTask('d1').levels.values);
    const d1 = resolveTask('d1');
    let prompt = 0;
    let canonical = 0;
    for (const level of d1.levels.values) {
      for (const instance of generateCell(d1, level, 2, { profile: 'official' })) {
        prompt += countPromptTokens(d1.render(instance), 'gpt-4o-mini');
        canonical += countTokens(d1.canonicalResponse(instance), 'gpt-4o-mini');
      }
    }
    expect(unit.amount.calls).toEqual({ low: 20, expected: 20, high: 20 });
    expect(unit.amount.promptTokens).toEqual({ low: prompt, expected: prompt, high: prompt });
    const expectedOut = d1.levels.values.reduce((s, n) => s + 2 * (d1.expectedOutputTokens?.(n) ?? 0), 0);
    expect(unit.amount.outputTokens.expected).toBeCloseTo(expectedOut, -1);
    expect(unit.amount.outputTokens.low).toBeLessThanOrEqual(canonical);
    expect(unit.amount.outputTokens.high).toBe(d1.levels.values.reduce((s, n) => s + 2 * d1.maxOutputTokens(n), 0));
    expect(unit.amount.costUsd).toBeNull();
    expect(plan.price).toBeNull();
    expect(plan.tokenizer).toEqual({ encoding: 'o200k_base', exact: true });
    expect(plan.notes.join('\n')).toMatch(/no price for openai:gpt-4o-mini/);
  });

  it('a price prices every bound; an unknown model is flagged as an approximate count', async () => {
    const config = await configFor(
      { CEILINGBENCH_SUBJECT: 'openai:llama-3.1-8b', CEILINGBENCH_TRIALS: '1' },
      {
        'llama-3.1-8b': PRICE,
      },
    );
    const plan = await buildPlan({ config, env: {}, projects: ['d2'] });
    const { amount } = plan.projects[0];
    expect(amount?.costUsd?.expected).toBeCloseTo(
      ((amount?.promptTokens.expected ?? 0) * PRICE.input + (amount?.outputTokens.expected ?? 0) * PRICE.output) / 1e6,
      12,
    );
    expect(plan.tokenizer.exact).toBe(false);
    expect(plan.notes.join('\n')).toMatch(/approximate/);
  });

  it('the d3 project is its grid and its ablation (5 variants on the same instances); adaptive is the grid as a cap', async () => {
    const config = await configFor({ CEILINGBENCH_SUBJECT: 'openai:gpt-4o', CEILINGBENCH_TRIALS: '1' });
    const plan = await buildPlan({ config, env: {}, projects: ['d3'] });
    expect(plan.projects[0].units.map((u) => [u.kind, u.cells.length])).toEqual([
      ['grid', 10],
      ['ablation', 5],
    ]);
    const grid = plan.projects[0].units[0];
    const adaptive = async (design: RunConfig['design']) =>
      (await buildPlan({ config: { ...config, design }, env: {}, projects: ['d3'] })).projects[0].units[0];

    const byCalls = await adaptive({ kind: 'adaptive', objective: 'calls' });
    expect(byCalls).toMatchObject({ kind: 'adaptive', isRange: true });
    expect(byCalls.amount.calls).toEqual({ low: 0, expected: 10, high: 10 });
    expect(byCalls.amount.outputTokens.expected).toBe(grid.amount.outputTokens.expected);
    expect(byCalls.amount.outputTokens.high).toBe(10 * resolveTask('d3').maxOutputTokens(50));
    expect(byCalls.note).toMatch(/objective calls, depths 5…50.*at most 10 calls/);

    // the default objective: the cap is the grid's cost, which buys more calls at cheaper depths
    const byCost = await adaptive({ kind: 'adaptive' });
    expect(byCost.amount.calls.expected).toBeNull();
    expect(byCost.amount.calls.high).toBeGreaterThan(10);
    expect(byCost.amount.outputTokens.expected).toBe(grid.amount.outputTokens.expected);
    expect(byCost.amount.outputTokens.high).toBeGreaterThanOrEqual(grid.amount.outputTokens.high);
    expect(byCost.note).toMatch(/objective cost, depths 5…50.*grid's cost/);
    const wider = await adaptive({ kind: 'adaptive', depths: { min: 1, max: 60 } });
    expect(wider.amount.calls.high).toBeGreaterThan(byCost.amount.calls.high);
    expect(wider.note).toMatch(/depths 1…60/);
    for (const unit of [byCalls, byCost, wider]) expect(amountOrdered(unit.amount)).toBe(true);
  });

  it('says where the estimate stands against the run’s spending limits', async () => {
    const base = await configFor(
      { CEILINGBENCH_SUBJECT: 'openai:gpt-4o-mini', CEILINGBENCH_TRIALS: '2' },
      {
        'gpt-4o-mini': PRICE,
      },
    );
    const notes = async (limits: RunConfig['limits']) =>
      (await buildPlan({ config: { ...base, limits }, env: {}, projects: ['d1'] })).notes.join('\n');
    expect(await notes({ maxCalls: 100, maxCost: 10 })).toMatch(
      /--max-cost \$10\.00: the whole range is within it\n--max-calls 100: the whole range is within it/,
    );
    expect(await notes({ maxCalls: 10 })).toMatch(/--max-calls 10: even the low end 20 is above it/);
    expect(await notes({ maxTokens: 1e9 })).toMatch(/--max-tokens 1,000,000,000: the whole range is within it/);
    expect(await notes({})).not.toMatch(/--max-/);
    const unpriced = await buildPlan({
      config: { ...base, prices: {}, limits: { maxCost: 1 } },
      env: {},
      projects: ['d1'],
    });
    expect(unpriced.notes.join('\n')).toMatch(/--max-cost \$1\.00: not compared \(no price\)/);
  });

  it('the user’s own project is listed as not estimated, never as 0, and the totals say they leave it out', async () => {
    const config = await configFor({ CEILINGBENCH_SUBJECT: 'sim:default', CEILINGBENCH_TRIALS: '1' });
    const plan = await buildPlan({ config, env: {}, projects: ['d1', 'benchmarks'] });
    const own = plan.projects[1];
    expect(own).toMatchObject({ name: 'benchmarks', estimated: false, amount: null, trials: null });
    expect(plan.totals.complete).toBe(false);
    expect(plan.notes.join('\n')).toMatch(/benchmarks: .*not estimated/);
    expect(plan.notes.join('\n')).toMatch(/sends no request to a provider/);
  });
});

describe('SCC: ranges from the ladder configuration', () => {
  it('budgetChain doubles up to the ceiling, as the budget rule does', () => {
    expect(budgetChain(4096)).toEqual([4096, 8192, 16384, 32768]);
    expect(budgetChain(2048)).toEqual([2048, 4096, 8192, 16384, 32768]);
    expect(budgetChain(32768)).toEqual([32768]);
  });

  it('every ladder path ends, none is longer than the search allows, and the all-pass path doubles to 20000', () => {
    const paths = ladderPaths();
    expect(paths.length).toBeGreaterThan(20);
    const allPass = paths.find((p) => p.every((s) => s.phase === 'expansion') && p.length === 11);
    expect(allPass?.map((s) => s.center)).toEqual([32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 20000]);
    expect(Math.max(...paths.map((p) => p.length))).toBeLessThan(20);
  });

  it('the scc project is four range units; its expected total is unknown, its bounds hold', async () => {
    const config = await configFor(
      { CEILINGBENCH_SUBJECT: 'openai:gpt-4o-mini', CEILINGBENCH_TRIALS: '40' },
      {
        'gpt-4o-mini': PRICE,
      },
    );
    const plan = await buildPlan({ config, env: {}, projects: ['scc'] });
    const units = plan.projects[0].units;
    expect(units.map((u) => [u.kind, u.isRange])).toEqual([
      ['ladder', true],
      ['ladder', true],
      ['design', true],
      ['design', true],
    ]);
    const [counting, motif] = units;
    expect(counting.amount.calls.low).toBe(2); // a first-tier trial without an integer, then the preflight fails
    expect(counting.amount.calls.expected).toBeNull();
    const tiers = Math.max(...ladderPaths().map((p) => p.length));
    expect(counting.amount.calls.high).toBe(4 * (1 + 16 * tiers));
    expect(motif.amount.calls.high).toBe(11 * counting.amount.calls.high);
    expect(plan.totals.amount.costUsd?.expected).toBeNull();
    expect(plan.notes.join('\n')).toMatch(/scc is a range, not a count — .*up to 32,768/);
    for (const amount of amounts(plan)) expect(amountOrdered(amount)).toBe(true);
  });
});

describe('totals and bounds (property)', () => {
  const range = fc.tuple(fc.nat(10_000), fc.nat(10_000), fc.nat(10_000), fc.boolean()).map(([a, b, c, known]) => {
    const [low, expected, high] = [a, b, c].sort((x, y) => x - y);
    return { low, expected: known ? expected : null, high };
  });
  const tokens = fc.record({ calls: range, promptTokens: range, outputTokens: range });
  const price = fc.record({
    input: fc.double({ min: 0, max: 100, noNaN: true }),
    output: fc.double({ min: 0, max: 100, noNaN: true }),
  });

  it('pricing keeps low ≤ expected ≤ high, and the price of a sum is the sum of the prices', () => {
    fc.assert(
      fc.property(fc.array(tokens, { minLength: 1, maxLength: 6 }), price, (parts: Tokens[], p) => {
        const each = parts.map((t) => priced(t, p));
        for (const amount of each) expect(amountOrdered(amount)).toBe(true);
        const whole = priced(parts.reduce(addTokens), p);
        expect(amountOrdered(whole)).toBe(true);
        expectSum(whole, each);
      }),
    );
  });

  it('a plan’s totals are the sum of its projects, a project the sum of its units, a unit the sum of its cells', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 0, max: 3 }),
        price,
        async (trials, seed, p) => {
          const config = await configFor(
            {
              CEILINGBENCH_SUBJECT: 'openai:gpt-4o-mini',
              CEILINGBENCH_TRIALS: String(trials),
              CEILINGBENCH_SEED: String(seed),
            },
            { 'gpt-4o-mini': p },
          );
          const plan = await buildPlan({ config, env: {}, projects: ['d1', 'd2'] });
          expectSum(
            plan.totals.amount,
            plan.projects.flatMap((x) => (x.amount ? [x.amount] : [])),
          );
          for (const project of plan.projects) {
            expectSum(
              project.amount as PlanAmount,
              project.units.map((u) => u.amount),
            );
            for (const unit of project.units) {
              expectSum(
                unit.amount,
                unit.cells.map((c) => c.amount),
              );
              expect(unit.trials).toBe(10 * trials);
            }
          }
          for (const amount of amounts(plan)) expect(amountOrdered(amount)).toBe(true);
        },
      ),
      { numRuns: 4 },
    );
  });
});

describe('cache holdings: a trial answered in a run costs nothing in the plan afterwards', () => {
  let server: LoopbackServer | undefined;
  afterAll(() => server?.close());

  it('after one d2 cell ran against a loopback endpoint, the plan reports its trials cached and sends 0 requests', async () => {
    const d2 = resolveTask('d2');
    server = await startLoopbackServer({ answer: () => ({ text: 'FINAL: 0' }) });
    const root = mkdtempSync(join(tmpdir(), 'cb-plan-cache-'));
    const env = {
      OPENAI_BASE_URL: server.baseURL,
      OPENAI_API_KEY: 'sk-loopback',
      CEILINGBENCH_CACHE_DIR: join(root, 'cache'),
      CEILINGBENCH_SUBJECT: 'openai:loop-model',
      CEILINGBENCH_TRIALS: '3',
    };
    const config = await resolveRunConfig({ root, env });
    const before = await buildPlan({ config, env, projects: ['d2'] });
    expect(before.totals.cached).toBe(0);

    // the run's own path for one cell: the openai subject as a run creates it, runCell as describeSweep calls it
    const subject = await createSubject(config.subject, { seed: config.seed, cacheDir: config.cacheDir, env });
    await runCell({ project: 'd2', task: d2, level: 15, trials: 3 }, subject, {
      concurrency: 2,
      maxMissingFraction: 0.2,
    });
    const sent = server.log.length;
    expect(sent).toBe(3);

    const after = await buildPlan({ config, env, projects: ['d2'] });
    expect(server.log.length).toBe(sent); // planning sent nothing
    const cells = after.projects[0].units[0].cells;
    expect(cells.find((c) => c.level === 15)).toMatchObject({ trials: 3, cached: 3 });
    expect(cells.find((c) => c.level === 15)?.amount.calls).toEqual({ low: 0, expected: 0, high: 0 });
    expect(cells.filter((c) => c.level !== 15).every((c) => c.cached === 0)).toBe(true);
    expect(after.totals.cached).toBe(3);
    expect(after.totals.amount.calls.expected).toBe((before.totals.amount.calls.expected ?? 0) - 3);

    // another model, or the cache off: nothing of it is cached
    const otherModel = { ...config, subject: 'openai:other-model', subjects: ['openai:other-model'] };
    const other = await buildPlan({ config: otherModel, env, projects: ['d2'] });
    expect(other.totals.cached).toBe(0);
    const off = await buildPlan({ config, env: { ...env, CEILINGBENCH_CACHE_MODE: 'off' }, projects: ['d2'] });
    expect(off.totals.cached).toBe(0);

    // both models in one run: each subject is looked up under its own cache key
    const both = { ...config, subjects: ['openai:other-model', 'openai:loop-model'] };
    const run = await buildPlan({ config: both, env, projects: ['d2'] });
    expect(run.subjects.map((s) => [s.spec, s.totals.cached])).toEqual([
      ['openai:other-model', 0],
      ['openai:loop-model', 3],
    ]);
    expect(run.totals.cached).toBe(3);
    expect(server.log.length).toBe(sent);
  });
});
