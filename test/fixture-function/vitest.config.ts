import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ceilingbench } from 'ceilingbench/plugin';
import { defineConfig } from 'vitest/config';

// A consumer's configuration for a subject that is a function: no standard project, one spec folder 'pipeline'.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // Vite's cache outside the checkout: a test run writes nothing into the repository
  cacheDir: join(tmpdir(), 'ceilingbench-fixture-function-vite'),
  plugins: [ceilingbench({ projects: false, specs: { dir: 'specs', name: 'pipeline' } })],
});
