import { defineConfig } from 'vitest/config';

/** Benchmark projects: one folder of spec files each under specs/. */
export const BENCHMARK_PROJECTS = ['d1', 'd2', 'd3', 'scc', 'puzzles'] as const;

const benchmarkProject = (name: string) => ({
  extends: true as const,
  test: {
    name,
    include: [`specs/${name}/**/*.spec.ts`],
    testTimeout: 600_000,
    hookTimeout: 600_000,
  },
});

export default defineConfig({
  test: {
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/**/*.test.ts'], testTimeout: 60_000 },
      },
      ...BENCHMARK_PROJECTS.map(benchmarkProject),
    ],
  },
});
