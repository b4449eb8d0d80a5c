// Whether dist/ is the current sources compiled, and a build when it is not. One rule for every way this
// repository runs its own package (it runs it as built, as a user's repository does): `npm run bench`
// (scripts/dev-cli.js), `npm test` and `npm run test:quick` (before Vitest loads vitest.config.ts, which imports
// the plugin by the package's name), and the unit project's global setup.
//
// `npm run build` writes dist/.built once tsc has written every file (a build in progress has none); dist/ is
// current when no file or folder under the compiled folders (src/, specs/, reporters/: tsconfig.build.json's include)
// changed after it (folders count: deleting or renaming a module changes only its folder's modification time).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The folders the build compiles (tsconfig.build.json's include). */
const SOURCES = ['src', 'specs', 'reporters'];

/** @returns {boolean} */
function distIsCurrent() {
  const built = join(ROOT, 'dist/.built');
  if (!existsSync(built)) return false;
  try {
    const stamp = statSync(built).mtimeMs;
    for (const folder of SOURCES) {
      const src = join(ROOT, folder);
      if (statSync(src).mtimeMs >= stamp) return false;
      for (const entry of readdirSync(src, { withFileTypes: true, recursive: true })) {
        if (!entry.isFile() && !entry.isDirectory()) continue;
        if (statSync(join(entry.parentPath, entry.name)).mtimeMs >= stamp) return false;
      }
    }
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs `npm run build` when dist/ is not current (about 12 s on 2 cores), its output on stderr; throws when the
 * build fails. Not for two processes at once: the build empties dist/ first.
 * @returns {void}
 */
export function ensureBuilt() {
  if (distIsCurrent()) return;
  process.stderr.write('dist/ is older than src/, specs/ or reporters/: npm run build\n');
  const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: ['ignore', 2, 2] });
  if (build.status !== 0) throw new Error('npm run build failed: this repository runs its package as built (dist/)');
}

// `node scripts/built.js`: build when stale (the npm scripts run it before Vitest)
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    ensureBuilt();
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 1;
  }
}
