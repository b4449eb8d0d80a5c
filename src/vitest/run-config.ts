import { type RunConfig, resolveRunConfig } from '../config/resolve.js';
import { createSubject } from '../subjects/index.js';

/** The part of Vitest's main-process API that resolving a run's configuration needs. */
export interface VitestHost {
  config: { root: string };
  import<T>(moduleId: string): Promise<T>;
}

const resolved = new WeakMap<object, Promise<RunConfig>>();

/**
 * The run's configuration, resolved once per Vitest instance against Vitest's root (never the current
 * directory): ceilingbench.config.ts is loaded through Vitest's module runner, so TypeScript works on plain
 * Node. The subject is built once (no request is sent) so that a bad subject, key or replay file is one
 * error before any worker starts, not one failed test per cell.
 */
export function runConfigFor(vitest: VitestHost): Promise<RunConfig> {
  let config = resolved.get(vitest);
  if (!config) {
    config = (async () => {
      const run = await resolveRunConfig({ root: vitest.config.root, importFile: (path) => vitest.import(path) });
      const subject = await createSubject(run.subject, {
        seed: run.seed,
        cacheDir: run.cacheDir,
        report: () => undefined,
      });
      await subject.close?.();
      return run;
    })();
    resolved.set(vitest, config);
  }
  return config;
}
