import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { distIsCurrent } from './dist-current.js';

const ROOT = resolve(new URL('../..', import.meta.url).pathname);

/**
 * The unit project's global setup: builds dist/ when it is not the current sources compiled (`npm ci` built it in
 * CI, so there it does nothing). The end-to-end children run the package as a user installs it — the consumer
 * fixtures (test/fixture-function, test/fixture-family, test/ladder-family) import it by its own name, which
 * resolves to dist/ — so a child must never run a stale build. `npm run test:quick` starts no child: it builds
 * nothing.
 */
export default function buildDist(): void {
  if (process.env.npm_lifecycle_event === 'test:quick' || distIsCurrent(ROOT)) return;
  const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) {
    throw new Error('npm run build failed: the end-to-end tests run the package as built (dist/); fix the build first');
  }
}
