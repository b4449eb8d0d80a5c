import { ceilingbench } from 'ceilingbench/plugin';
import { defineConfig } from 'vitest/config';

// The package's benchmark, exactly as in a repository of its own: run here (`npm run bench -w @example/bench`)
// or from the workspace root, it is the same projects, the same gates and the same reports/.
export default defineConfig({
  plugins: [ceilingbench({ projects: ['d1', 'd2'], specs: 'benchmarks' })],
});
