import { defineConfig } from 'vitest/config';
import { ceilingbench } from './src/vitest/plugin.js';

// Our own repository uses the plugin as a user does: the standard benchmark projects (d1, d2, d3, puzzles,
// scc; spec files in src/specs, shipped as dist/specs), the setup file and the reporter; plus our tests.
export default defineConfig({
  plugins: [ceilingbench({ specs: false })],
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          setupFiles: ['./src/vitest/setup.ts'],
          // A guard against a hang, not a speed claim: an end-to-end test starts up to six child runs, and with
          // three files at once beside CI's consumer smoke test one child can take a minute on two cores.
          testTimeout: 600_000,
          // Vitest's default is cores − 1 workers: one on a 2-core machine, so the files ran one after another
          // while most of the slow ones sit blocked on a child process (a `vitest run` or `ceilingbench run`).
          // Three overlap that waiting; the in-process files keep both cores busy meanwhile. Every test already
          // owns its temporary directories and loopback ports (port 0), so files never share state.
          maxWorkers: 3,
        },
      },
    ],
  },
});
