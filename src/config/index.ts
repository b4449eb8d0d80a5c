/**
 * Loading and resolving a configuration outside Vitest (`ceilingbench/config`): what the plugin and the CLI do
 * before a run, for a script or another runner. Writing one is `defineConfig` from `ceilingbench`.
 */
export {
  /** @public What a configuration file or variable got wrong, one line per issue (exit 2). */
  ConfigError,
} from './errors.js';
export {
  /** @public The configuration file names looked up, in order. */
  CONFIG_FILES,
  /** @public Reads ceilingbench.config.ts (or CEILINGBENCH_CONFIG) and the CEILINGBENCH_* variables. */
  loadConfig,
} from './load.js';
export {
  /** @public Options of `resolveRunConfig`. */
  type ResolveOptions,
  /** @public The configuration of one run: loaded, with its root and subjects resolved. */
  type RunConfig,
  /** @public Resolves the configuration of a run rooted at a directory. */
  resolveRunConfig,
} from './resolve.js';
export {
  /** @public The configuration file's schema (zod). */
  configSchema,
} from './schema.js';
