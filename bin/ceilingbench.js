#!/usr/bin/env node
// The installed command: plain Node running the built JavaScript in dist/ (no loader, no TypeScript).
import { existsSync } from 'node:fs';
import module from 'node:module';

// V8's compiled code of every module the run loads (the CLI, Vitest, Vite, rolldown's bindings…) is cached on
// disk between runs (Node >= 22.1, in the OS temporary folder; NODE_DISABLE_COMPILE_CACHE=1 turns it off); the
// variable passes the cache to Vitest's worker processes, which each load Vitest and the run's modules again.
const compileCache = module.enableCompileCache?.();
if (compileCache?.directory && process.env.NODE_COMPILE_CACHE === undefined) {
  process.env.NODE_COMPILE_CACHE = compileCache.directory;
}

const main = new URL('../dist/src/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write('ceilingbench: dist/ is missing — in a source checkout run `npm run build` first\n');
  process.exit(2);
}
await import(main.href);
