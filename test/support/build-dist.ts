import { ensureBuilt } from '../../scripts/built.js';

/**
 * The unit project's global setup: builds dist/ when it is not the current sources compiled. `npm test` and
 * `npm run test:quick` have built it before Vitest started (our vitest.config.ts imports the plugin from dist/), so
 * this is for `npx vitest` run directly. The end-to-end children run the package as a user installs it (the
 * consumer fixtures import it by its own name, which resolves to dist/): a child must never run a stale build.
 */
export default function buildDist(): void {
  ensureBuilt();
}
