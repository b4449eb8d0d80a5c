#!/usr/bin/env node
// Development only: the `ceilingbench` command of this repository (`npm run bench`, the tests' CLI children). It
// runs the package as built, as a user's repository does (the package's bin, bin/ceilingbench.js, runs dist/ too),
// building it first when any file under src/, specs/ or reporters/ is newer than the build (scripts/built.js): the
// command always runs the sources as they are. Our vitest.config.ts imports the plugin by the package's name, i.e.
// from dist/ as well, so the command and the configuration share one plugin module.
import module from 'node:module';
import { ensureBuilt } from './built.js';

// V8's compiled code of every module the run loads (the CLI, Vitest, Vite, rolldown's bindings…) is cached on
// disk between runs (Node >= 22.1, in the OS temporary folder; NODE_DISABLE_COMPILE_CACHE=1 turns it off); the
// variable passes the cache to Vitest's worker processes, which each load Vitest and the run's modules again.
const compileCache = module.enableCompileCache?.();
if (compileCache?.directory && process.env.NODE_COMPILE_CACHE === undefined) {
  process.env.NODE_COMPILE_CACHE = compileCache.directory;
}

try {
  ensureBuilt();
} catch (error) {
  process.stderr.write(`ceilingbench (development): ${error.message}\n`);
  process.exit(2);
}
await import(new URL('../dist/src/cli/main.js', import.meta.url).href);
