#!/usr/bin/env node
// Development only: runs the CLI from the TypeScript sources, so tests and `npm run bench` always exercise the
// current src/ without a build. The package's bin (bin/ceilingbench.js) runs dist/.
//
// When dist/ was built after every file of src/ last changed (`npm run build`, or `npm ci` through `prepare`), it
// is the same program compiled: it runs on plain Node, without tsx's loader hooks, which cost ≈ 4 CPU s of a run's
// start-up (every import of the CLI, Vitest and Vite resolved through a hooks thread). Any source file newer than
// the build, or no finished build, and the sources run through tsx (a devDependency) as before.
import { existsSync, readdirSync, statSync } from 'node:fs';
import module from 'node:module';
import { fileURLToPath } from 'node:url';

// V8's compiled code of every module the run loads (the CLI, Vitest, Vite, rolldown's bindings…) is cached on
// disk between runs (Node >= 22.1, in the OS temporary folder; NODE_DISABLE_COMPILE_CACHE=1 turns it off); the
// variable passes the cache to Vitest's worker processes, which each load Vitest and the run's modules again.
const compileCache = module.enableCompileCache?.();
if (compileCache?.directory && process.env.NODE_COMPILE_CACHE === undefined) {
  process.env.NODE_COMPILE_CACHE = compileCache.directory;
}

const src = fileURLToPath(new URL('../src/', import.meta.url));
/** Written by `npm run build` once tsc has written every file (a build in progress has none). */
const built = fileURLToPath(new URL('../dist/.built', import.meta.url));

/**
 * The newest modification time under a directory (ms). Folders count too: deleting or renaming a module changes
 * only its folder's mtime.
 */
function newest(dir) {
  let latest = statSync(dir).mtimeMs;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() && !entry.isDirectory()) continue;
    latest = Math.max(latest, statSync(`${entry.parentPath}/${entry.name}`).mtimeMs);
  }
  return latest;
}

function distIsCurrent() {
  if (!existsSync(built)) return false;
  try {
    return newest(src) < statSync(built).mtimeMs;
  } catch {
    return false;
  }
}

if (distIsCurrent()) {
  await import(new URL('../dist/cli/main.js', import.meta.url).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
