import type { Vitest } from 'vitest/node';
import { isBenchmarkProject } from './benchmark-mark.js';

const wrapped = new WeakSet<object>();

type Collect = (filters?: string[], options?: { staticParse?: boolean; staticParseConcurrency?: number }) => unknown;

/**
 * `vitest list` lists the benchmark cells, on Vitest 5 as on 4.1. Vitest 5's `list` parses test files statically
 * by default (`--staticParse`): it asks Vite for each file's transformed code and reads the `describe`/`test` calls
 * in it. That cannot list a benchmark: its cells are declared by `describeSweep` and friends when the spec runs,
 * never written as `test(…)` calls, and Vite returns nothing for the standard spec files at all (they are
 * installed under node_modules, so Vitest leaves them to Node: "Failed to parse …/dist/specs/d1/retention.spec.js.
 * Vite didn't return anything", exit 1, and nothing listed, the user's own tests neither).
 *
 * So when a collection includes a benchmark project, it collects by loading the files, as Vitest 4.1 always did
 * (the cells are declared, no test body runs, nothing is sent). Vitest gives a plugin no option for this (the
 * flag reaches `collect` from the command line only), hence the wrapper around the instance's `collect`; an
 * explicit `--no-staticParse` is the same, and a collection without a benchmark project is left as it was.
 */
export function listBenchmarkCells(vitest: Vitest): void {
  if (wrapped.has(vitest)) return;
  wrapped.add(vitest);
  const instance = vitest as unknown as { collect?: Collect };
  const collect = instance.collect;
  if (typeof collect !== 'function') return;
  instance.collect = function (this: unknown, filters, options) {
    const benchmarks = vitest.projects.some(isBenchmarkProject);
    return collect.call(vitest, filters, benchmarks ? { ...options, staticParse: false } : options);
  };
}
