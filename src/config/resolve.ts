import { resolve } from 'node:path';
import { z } from 'zod';
import { designSchema, sweepDesignFromEnv } from './design.js';
import { findConfigFile, loadConfig } from './load.js';
import { configSchema } from './schema.js';

type Env = Record<string, string | undefined>;

/**
 * The configuration of one run, resolved once in the main process against Vitest's root and handed to
 * every worker (Vitest `provide`/`inject`), so the reporter, the gates, the workers and the CLI read the
 * same values whatever the current directory. Paths are absolute.
 */
export const runConfigSchema = configSchema.extend({
  /** The run's subjects, at least one, distinct (the config's `subjects`, or its one `subject`); `subject` is the first. */
  subjects: z.array(z.string().min(1)).min(1),
  /** Vitest's root: where ceilingbench.config.ts was looked for, and what relative paths are relative to. */
  root: z.string(),
  /** Absolute report directory (`out` resolved against the root). */
  outDir: z.string(),
  /** Absolute response-cache directory (CEILINGBENCH_CACHE_DIR, else .ceilingbench/cache under the root). */
  cacheDir: z.string(),
  /** The CCB depth design (CEILINGBENCH_DESIGN, CEILINGBENCH_TARGET_WIDTH). */
  design: designSchema,
  /** The configuration file that was read, or null when there was none. */
  configFile: z.string().nullable(),
  /**
   * The run's spend ledger (src/spend/ledger-server.ts), started in the main process when a paid subject runs
   * under a spending limit or under `ceilingbench run` (for Ctrl-C): its loopback URL, and whether the workers
   * leave the first Ctrl-C to the main process (`ceilingbench run` only). Absent: no trial asks anything.
   */
  spendLedger: z.object({ url: z.string().url(), interruptible: z.boolean() }).optional(),
  /** `ceilingbench run` without a spend ledger (no paid subject): the workers leave the first signal to it. */
  interruptible: z.boolean().optional(),
  /**
   * The benchmark projects the plugin declared for this configuration, before any `--project` filter: the names a
   * gate key may use, and the projects whose gates a filtered run left unevaluated. Absent without the plugin.
   */
  benchmarkProjects: z.array(z.string()).optional(),
  /** Each declared benchmark Vitest project's spec folder (absolute), for the evidence manifest. Absent without the plugin. */
  benchmarkDirs: z.record(z.string(), z.string()).optional(),
  /** The shard this run is (`--shard i/n`), stamped on every test module so a merge knows which shards it holds. */
  shard: z.object({ index: z.number().int().positive(), count: z.number().int().positive() }).optional(),
});
export type RunConfig = z.infer<typeof runConfigSchema>;

/** The key under which the resolved configuration is provided to workers. */
export const RUN_CONFIG_KEY = 'ceilingbench';

export interface ResolveOptions {
  root: string;
  env?: Env;
  /** Loads a configuration file (Vitest's module runner for TypeScript); default: native `import()`. */
  importFile?: (path: string) => Promise<unknown>;
}

export async function resolveRunConfig(options: ResolveOptions): Promise<RunConfig> {
  const env = options.env ?? process.env;
  const root = resolve(options.root);
  const config = await loadConfig(env, root, options.importFile);
  return runConfigSchema.parse({
    ...config,
    root,
    outDir: resolve(root, config.out),
    cacheDir: resolve(root, env.CEILINGBENCH_CACHE_DIR || '.ceilingbench/cache'),
    design: sweepDesignFromEnv(env),
    configFile: findConfigFile(env, root),
  });
}
