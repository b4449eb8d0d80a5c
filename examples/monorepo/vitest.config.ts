import { ceilingbenchWorkspace } from 'ceilingbench/plugin';
import { defineConfig } from 'vitest/config';

// Every folder under packages/ is a Vitest project. packages/bench's benchmark projects (d1, d2 and its
// benchmarks/ folder) are also declared here, from its own vitest.config.ts, so that `vitest run --project d2`
// from this folder finds them; each reads packages/bench/ceilingbench.config.ts and writes packages/bench/reports/.
export default defineConfig({
  plugins: [ceilingbenchWorkspace('packages/bench')],
  test: { projects: ['packages/*'] },
});
