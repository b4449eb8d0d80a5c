// The configuration of this repository's end-to-end `vitest run` children (test/support/run-vitest.ts), on dist/
// as the unit project's global setup built it. The same plugin as the root configuration's, as a user installs it:
// imported by the package's own name (dist/), in plain JavaScript; without our own tests' project. Vite's bundling
// loader (`--configLoader bundle`, as for a user's config) leaves that bare import to Node: one small bundle. Its
// `native` loader imports the file itself, but on a Node without module.registerHooks (22.12, the floor CI tests on)
// it registers loader hooks on a thread of their own, through which every later import of the process then passes
// (about 0.3-1 CPU s more per child). Transformed modules are cached on disk across children
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
