import { defineConfig } from 'vitest/config';

/** Benchmark projects: one folder of spec files each under specs/. */
export const BENCHMARK_PROJECTS = ['d1', 'd2', 'd3', 'scc', 'puzzles'] as const;

const benchmarkProject = (name: string) => ({
  extends: true as const,
  test: {
    name,
    include: [`specs/${name}/**/*.spec.ts`],
    setupFiles: ['./src/vitest/setup.ts'],
    testTimeout: 1_800_000,
    hookTimeout: 600_000,
    maxConcurrency: 10,
  },
});

export default defineConfig({
  test: {
    reporters: ['default', './reporters/index.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          setupFiles: ['./src/vitest/setup.ts'],
          testTimeout: 120_000,
        },
      },
      ...BENCHMARK_PROJECTS.map(benchmarkProject),
    ],
  },
});
