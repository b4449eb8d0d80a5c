import { describe, expect, it } from 'vitest';
import type { Vitest } from 'vitest/node';
import { BENCHMARK_MARK } from '../../src/vitest/benchmark-mark.js';
import { listBenchmarkCells } from '../../src/vitest/list-cells.js';

/** A Vitest instance as far as `list` uses it: its projects and its `collect`, which records what it was asked. */
function fakeVitest(benchmark: boolean) {
  const calls: unknown[][] = [];
  const projects = [
    { name: 'tests', config: { provide: {} } },
    ...(benchmark ? [{ name: 'd2', config: { provide: { [BENCHMARK_MARK]: true } } }] : []),
  ];
  const vitest = {
    projects,
    async collect(...args: unknown[]) {
      calls.push(args);
      return { testModules: [], unhandledErrors: [] };
    },
  };
  return { vitest: vitest as unknown as Vitest, calls };
}

describe('vitest list with benchmark projects', () => {
  it('collects by loading the files (no static parse) when a benchmark project is selected', async () => {
    const { vitest, calls } = fakeVitest(true);
    listBenchmarkCells(vitest);
    listBenchmarkCells(vitest); // once per instance, whichever project's hook calls it
    await vitest.collect(['sum'], { staticParse: true, staticParseConcurrency: 2 } as never);
    await vitest.collect();
    expect(calls).toEqual([
      [['sum'], { staticParse: false, staticParseConcurrency: 2 }],
      [undefined, { staticParse: false }],
    ]);
  });

  it('leaves a collection without a benchmark project as Vitest would make it', async () => {
    const { vitest, calls } = fakeVitest(false);
    listBenchmarkCells(vitest);
    await vitest.collect(['sum'], { staticParse: true } as never);
    expect(calls).toEqual([[['sum'], { staticParse: true }]]);
  });
});
