#!/usr/bin/env node
// Development only: runs the CLI from the TypeScript sources, so tests and `npm run bench` always exercise the
// current src/ without a build. The package's bin (bin/ceilingbench.js) runs dist/.
//
// When dist/ was built after every file of src/ last changed (`npm run build`, or `npm ci` through `prepare`), it
// is the same program compiled: it runs on plain Node, without tsx's loader hooks, which cost ≈ 4 CPU s of a run's
// start-up (every import of the CLI, Vitest and Vite resolved through a hooks thread). Any source file newer than
// the build, or no finished build, and the sources run through tsx (a devDependency) as before.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

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
