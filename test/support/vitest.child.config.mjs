// The configuration of this repository's end-to-end `vitest run` children (test/support/run-vitest.ts), on dist/
// as the unit project's global setup built it. The same plugin as the root configuration's, as a user installs it:
// imported by the package's own name (dist/), in plain JavaScript that Node loads without Vite bundling it
// (`--configLoader native`); without our own tests' project. Transformed modules are cached on disk across children
// (Vitest's `experimental.fsModuleCache`, keyed by each file's content): each of the ~100 children otherwise
// transformed the same benchmark modules again.
import { ceilingbench } from 'ceilingbench/plugin';
import { defineConfig } from 'vitest/config';
import { version } from 'vitest/node';

export default defineConfig({
  plugins: [ceilingbench({ specs: false, tests: false })],
  // Vitest 5 caches by default and warns on the experimental key
  test: Number.parseInt(version, 10) >= 5 ? {} : { experimental: { fsModuleCache: true } },
});
