import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCell } from '../../src/assays/sweep/run-cell.js';
import { spendAdmission } from '../../src/cli/commands/run-batch.js';
import { runFlagsEnv } from '../../src/cli/run-flags.js';
import { loadConfig } from '../../src/config/load.js';
import { type RunConfig, resolveRunConfig } from '../../src/config/resolve.js';
import { errorCodeOf } from '../../src/errors.js';
import { batchTrials } from '../../src/plan/batch-trials.js';
import { buildPlan } from '../../src/plan/build.js';
import { batchPrice } from '../../src/spend/price.js';
import type { Subject, TrialRequest } from '../../src/subjects/subject.js';
import { resolveTask } from '../../src/tasks/registry.js';

/**
 * What batch mode plans and lists before a run: `plan --batch` prices at the batch rate, the trials it batches are
 * the ones the sweep asks (request for request), designs that choose their next request from answers refuse with
 * CB_BATCH_UNSUPPORTED, and a spending limit holds a batch back before it is submitted.
 */

const PRICE = { input: 0.15, output: 0.6 };

async function configFor(env: Record<string, string>, extra: Partial<RunConfig> = {}): Promise<RunConfig> {
  const root = mkdtempSync(join(tmpdir(), 'cb-batch-plan-'));
  const config = await resolveRunConfig({ root, env: { CEILINGBENCH_CACHE_DIR: join(root, 'cache'), ...env } });
  return { ...config, ...extra };
}

const refusal = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    return `${errorCodeOf(error)}: ${(error as Error).message}`;
  }
  return 'no error';
};

describe('plan --batch', () => {
  it('prices the openai requests at the batch rate: half the list price by default, the table’s `batch` price when given', async () => {
    const env = { CEILINGBENCH_SUBJECT: 'openai:gpt-4o-mini', CEILINGBENCH_TRIALS: '4' };
    const live = await buildPlan({
      config: await configFor(env, { prices: { 'gpt-4o-mini': PRICE } }),
      projects: ['d2'],
      env: {},
    });
    const batched = await buildPlan({
      config: await configFor(env, { prices: { 'gpt-4o-mini': PRICE }, batch: true }),
      projects: ['d2'],
      env: {},
    });
    const cost = (plan: typeof live) => plan.totals.amount.costUsd;
    expect(batched.totals.amount.calls).toEqual(live.totals.amount.calls);
    expect(cost(batched)?.expected).toBeCloseTo((cost(live)?.expected ?? 0) / 2, 12);
    expect(cost(batched)?.high).toBeCloseTo((cost(live)?.high ?? 0) / 2, 12);
    expect(batched.notes.join('\n')).toMatch(
      /priced at the batch rate: \$0\.075\/\$0\.3 per million input\/output tokens against \$0\.15\/\$0\.6 live/,
    );
    expect(live.notes.join('\n')).not.toMatch(/batch rate/);
    const own = { ...PRICE, batch: { input: 0.1, output: 0.5 } };
    expect(batchPrice(own)).toEqual({ input: 0.1, output: 0.5 });
    expect(batchPrice({ ...PRICE, cachedInput: 0.08 })).toEqual({ input: 0.075, output: 0.3, cachedInput: 0.04 });
  });

  it('CEILINGBENCH_BATCH and the file’s `batch` make the configuration', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cb-batch-config-'));
    expect((await loadConfig({}, root)).batch).toBe(false);
    expect((await loadConfig({ CEILINGBENCH_BATCH: 'true' }, root)).batch).toBe(true);
    await expect(loadConfig({ CEILINGBENCH_BATCH: 'yes' }, root)).rejects.toThrow(/neither true nor false/);
    // `run --batch` and `plan --batch` set it
    expect(runFlagsEnv({ batch: true }).CEILINGBENCH_BATCH).toBe('true');
    expect(runFlagsEnv({}).CEILINGBENCH_BATCH).toBeUndefined();
  });
});

describe('the trials batch mode lists', () => {
  it('are the requests the sweep sends, for every cell of d2 and of d3 with its ablation', async () => {
    const config = await configFor({
      CEILINGBENCH_SUBJECT: 'openai:m',
      CEILINGBENCH_TRIALS: '3',
      CEILINGBENCH_SEED: '2',
    });
    const [listed] = batchTrials(config, ['d2']);
    expect(listed?.trials).toHaveLength(30);
    // the run's own path for a cell: runCell as describeSweep calls it, with a subject that records what it is asked
    const asked: TrialRequest[] = [];
    const recorder: Subject = {
      identity: { spec: 'openai:m', kind: 'openai', model: 'm', parameters: {} },
      answer: async (request) => {
        asked.push(request);
        return { kind: 'error', error: 'recorded', latencyMs: 0, attempts: 0 };
      },
    };
    const d2 = resolveTask('d2');
    for (const level of d2.levels.values)
      await runCell({ project: 'd2', task: d2, level, trials: 3, seedOffset: 2_000_000 }, recorder, {
        concurrency: 1,
        maxMissingFraction: 0.2,
      });
    const shape = (r: TrialRequest) => ({
      taskId: r.taskId,
      instance: r.instance,
      prompt: r.prompt,
      trialIndex: r.trialIndex,
      maxOutputTokens: r.maxOutputTokens,
    });
    const sorted = (rs: TrialRequest[]) =>
      rs.map(shape).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    expect(sorted(listed?.trials ?? [])).toEqual(sorted(asked));
    const [d3] = batchTrials(config, ['d3']);
    const plan = await buildPlan({ config, env: {}, projects: ['d3'] });
    expect(d3?.trials).toHaveLength(plan.totals.trials as number);
  });

  it('refuse what cannot be listed before the run, with CB_BATCH_UNSUPPORTED', async () => {
    const config = await configFor({ CEILINGBENCH_SUBJECT: 'openai:m', CEILINGBENCH_TRIALS: '2' });
    expect(refusal(() => batchTrials(config, ['scc']))).toMatch(
      /^CB_BATCH_UNSUPPORTED: --batch: project 'scc' runs the counting-capacity ladder/,
    );
    expect(refusal(() => batchTrials(config, undefined))).toMatch(
      /^CB_BATCH_UNSUPPORTED: .*name grid projects with --project/,
    );
    expect(refusal(() => batchTrials(config, ['benchmarks']))).toMatch(/^CB_BATCH_UNSUPPORTED: .*your own spec files/);
    for (const kind of ['adaptive', 'sequential'] as const) {
      const design = { ...config, design: { ...config.design, kind } } as RunConfig;
      expect(refusal(() => batchTrials(design, ['d2']))).toMatch(
        new RegExp(`^CB_BATCH_UNSUPPORTED: --batch: the ${kind} design chooses each next trial`),
      );
    }
    const sim = await configFor({ CEILINGBENCH_SUBJECT: 'sim:default' });
    expect(refusal(() => batchTrials(sim, ['d2']))).toMatch(/^CB_BATCH_UNSUPPORTED: --batch: no openai subject/);
    // the puzzles grid is listed whole
    expect(refusal(() => batchTrials(config, ['puzzles', 'd1']))).toBe('no error');
  });
});

describe('spending limits before a batch is submitted', () => {
  const request = (maxOutputTokens: number) => ({ maxOutputTokens }) as TrialRequest;

  it('count each request at its prompt and whole output budget, and hold back every request from the first that would pass', () => {
    const calls = spendAdmission({ maxCalls: 2 });
    expect([1, 2, 3, 4].map(() => calls(request(10), 5, null))).toEqual([
      undefined,
      undefined,
      'budget: not batched — maxCalls 2 reached',
      'budget: not batched — maxCalls 2 reached',
    ]);
    const tokens = spendAdmission({ maxTokens: 100 });
    expect([tokens(request(40), 10, null), tokens(request(40), 10, null), tokens(request(1), 0, null)]).toEqual([
      undefined,
      undefined,
      expect.stringMatching(/maxTokens 100 would be passed/),
    ]);
    // $0.3 per million output at the batch rate: 1,000,000 output tokens cost $0.30
    const cost = spendAdmission({ maxCost: 0.5 });
    const price = batchPrice(PRICE);
    expect([cost(request(1_000_000), 0, price), cost(request(1_000_000), 0, price)]).toEqual([
      undefined,
      expect.stringMatching(/maxCost \$0\.5 would be passed at the batch price/),
    ]);
    expect(spendAdmission({ maxCost: 1 })(request(1), 1, null)).toMatch(/has no price/);
  });
});
