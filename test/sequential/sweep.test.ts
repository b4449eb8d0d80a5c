import { afterAll, describe, expect, it } from 'vitest';
import { runSequentialSweep } from '../../src/assays/sequential/index.js';
import { fakeStepsPlugin } from '../support/fake-tasks.js';
import { type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';
import { loopbackSubject, tempDir } from '../support/openai-harness.js';
import { simStepsAnswerer } from '../support/sim-over-http.js';

const servers: LoopbackServer[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const server of servers) await server.close();
  for (const cleanup of cleanups) await cleanup();
});

const OPTIONS = {
  batch: 4,
  maxPerCell: 64,
  seed: 0,
  missing: 'paper' as const,
  concurrency: 8,
  maxMissingFraction: 0.5,
};

async function setUp(retention: number) {
  const server = await startLoopbackServer({ answer: simStepsAnswerer(retention) });
  servers.push(server);
  const cache = await tempDir('cb-seq-');
  cleanups.push(cache.remove);
  return { server, cacheDir: cache.path };
}

describe('runSequentialSweep (design sequential) on a loopback server', () => {
  it('stops early and passes a model well above the threshold; re-run on the cache: same verdict, 0 new requests', async () => {
    const { server, cacheDir } = await setUp(0.98);
    const test = { threshold: 0.8, margin: 0.05, alpha: 0.05 };
    const spec = { project: 'fake', task: fakeStepsPlugin };
    const first = await runSequentialSweep(spec, loopbackSubject(server.baseURL, { cacheDir }), { ...OPTIONS, test });
    expect(first).toMatchObject({ call: 'pass', atMaximum: false });
    expect(first.perCell).toBeLessThan(OPTIONS.maxPerCell);
    const asked = server.log.length;
    expect(asked).toBe(first.perCell * fakeStepsPlugin.levels.values.length);
    expect(first.fit.nTrials).toBe(asked);

    const again = await runSequentialSweep(spec, loopbackSubject(server.baseURL, { cacheDir }), { ...OPTIONS, test });
    expect(server.log.length).toBe(asked); // 0 new requests
    expect(again.call).toBe(first.call);
    expect(again.fit.counts).toEqual(first.fit.counts);
    expect(again.fit.pd).toBe(first.fit.pd);
  });

  it('fails a model far below the threshold, and its fit gated with evidence "test" takes the same decision', async () => {
    const { server, cacheDir } = await setUp(0.6);
    const test = { threshold: 0.9, margin: 0.05, alpha: 0.05 };
    const result = await runSequentialSweep(
      { project: 'fake', task: fakeStepsPlugin },
      loopbackSubject(server.baseURL, { cacheDir }),
      { ...OPTIONS, test },
    );
    expect(result).toMatchObject({ call: 'fail', atMaximum: false });
    const { evaluateGates } = await import('../../src/gates/threshold.js');
    const [gate] = evaluateGates('fake', result.fit, {
      minRetention: { value: 0.9, mode: 'hard', evidence: 'test', margin: 0.05 },
    });
    expect(gate.passed).toBe(false);
  });

  it('never passes a gate on missing answers: every call refused reaches the maximum, and the gate fails', async () => {
    const { server } = await setUp(0.99);
    await server.close(); // nothing listens: every trial is an api fault
    const test = { threshold: 0.8, margin: 0.05, alpha: 0.05 };
    const result = await runSequentialSweep(
      { project: 'fake', task: fakeStepsPlugin },
      loopbackSubject(server.baseURL),
      {
        ...OPTIONS,
        maxPerCell: 4,
        test,
      },
    );
    expect(result).toMatchObject({ atMaximum: true });
    expect(result.fit.counts.every((c) => c.n === 0)).toBe(true);
    const { evaluateGates } = await import('../../src/gates/threshold.js');
    const [gate] = evaluateGates('fake', result.fit, { minRetention: { value: 0.8, mode: 'hard', evidence: 'test' } });
    expect(gate.passed).toBe(false);
  });

  it('rejects a batch or a maximum that is not a positive whole number of trials', async () => {
    const { server } = await setUp(0.9);
    const test = { threshold: 0.9, margin: 0.05, alpha: 0.05 };
    await expect(
      runSequentialSweep({ project: 'fake', task: fakeStepsPlugin }, loopbackSubject(server.baseURL), {
        ...OPTIONS,
        test,
        batch: 0,
      }),
    ).rejects.toThrow(RangeError);
  });
});
