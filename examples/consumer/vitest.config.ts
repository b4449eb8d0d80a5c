import { ceilingbench } from 'ceilingbench/plugin';
import { defineConfig } from 'vitest/config';

// The standard benchmark projects (d1, d2, d3, puzzles, scc) with the grids that ship with ceilingbench, our
// own spec files in benchmarks/ as the project `benchmarks`, the matchers and the reporter (reports/).
export default defineConfig({
  plugins: [ceilingbench({ specs: 'benchmarks' })],
});
