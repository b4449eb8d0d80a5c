import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError, formatZodError } from './errors.js';
import { type CeilingbenchConfig, configSchema, gatesSchema } from './schema.js';

/** Looked for in this order in the root; CEILINGBENCH_CONFIG names another file. */
export const CONFIG_FILES = [
  'ceilingbench.config.ts',
  'ceilingbench.config.mts',
  'ceilingbench.config.js',
  'ceilingbench.config.mjs',
] as const;
export const CONFIG_FILE = CONFIG_FILES[0];

type Env = Record<string, string | undefined>;

function envNumber(env: Env, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value))
    throw new ConfigError(`${name}: '${raw}' is not a number — set it to a number, e.g. ${name}=40`);
  return value;
}

function envGates(env: Env): unknown {
  const raw = env.CEILINGBENCH_GATES;
  if (raw === undefined || raw.trim() === '') return undefined;
  try {
    return JSON.parse(raw);
  } catch (error) {
    throw new ConfigError(
      `CEILINGBENCH_GATES: not valid JSON (${(error as Error).message}) — e.g. CEILINGBENCH_GATES='{"d2":{"minRetention":0.95}}'`,
    );
  }
}

/** Native `import()`: enough for JavaScript files and for TypeScript under a loader (Vitest, tsx). */
export const nativeImport = (path: string): Promise<unknown> => import(/* @vite-ignore */ pathToFileURL(path).href);

async function readConfigFile(path: string, importFile: (path: string) => Promise<unknown>): Promise<unknown> {
  try {
    const module = (await importFile(path)) as { default?: unknown };
    return module.default ?? {};
  } catch (error) {
    throw new ConfigError(`${path}: cannot be loaded (${(error as Error).message}) — fix the file or remove it`);
  }
}

/** The configuration file of a root: CEILINGBENCH_CONFIG (relative to the root) or the first of CONFIG_FILES. */
export function findConfigFile(env: Env, root: string): string | null {
  const explicit = env.CEILINGBENCH_CONFIG;
  if (explicit) {
    const path = resolve(root, explicit);
    if (!existsSync(path)) {
      throw new ConfigError(`CEILINGBENCH_CONFIG: no file at ${path} — point it at an existing ceilingbench.config.ts`);
    }
    return path;
  }
  for (const name of CONFIG_FILES) {
    const path = resolve(root, name);
    if (existsSync(path)) return path;
  }
  return null;
}

/**
 * The effective configuration: defaults < ceilingbench.config.ts (or CEILINGBENCH_CONFIG) < environment.
 * Environment: CEILINGBENCH_SUBJECT, _SEED, _TRIALS, _CONCURRENCY, _OUT, _MISSING, _GATES (JSON, merged
 * per project over the file's gates), _MAX_COST, _MAX_TOKENS, _MAX_CALLS (each over the file's `limits`).
 */
export async function loadConfig(
  env: Env = process.env,
  cwd = process.cwd(),
  importFile: (path: string) => Promise<unknown> = nativeImport,
): Promise<CeilingbenchConfig> {
  const path = findConfigFile(env, cwd);
  const fromFile = path ? await readConfigFile(path, importFile) : {};
  const fileParsed = configSchema.partial().safeParse(fromFile);
  if (!fileParsed.success) throw formatZodError(path ?? 'configuration file', fileParsed.error);

  const gatesRaw = envGates(env);
  let envGatesParsed = {};
  if (gatesRaw !== undefined) {
    const parsed = gatesSchema.safeParse(gatesRaw);
    if (!parsed.success) throw formatZodError('CEILINGBENCH_GATES', parsed.error);
    envGatesParsed = parsed.data;
  }
  const fileGates = (fileParsed.data.gates ?? {}) as Record<string, object>;
  const gates: Record<string, object> = { ...fileGates };
  for (const [project, projectGates] of Object.entries(envGatesParsed)) {
    gates[project] = { ...(fileGates[project] ?? {}), ...(projectGates as object) };
  }

  const fromEnv = Object.fromEntries(
    Object.entries({
      subject: env.CEILINGBENCH_SUBJECT || undefined,
      seed: envNumber(env, 'CEILINGBENCH_SEED'),
      trials: envNumber(env, 'CEILINGBENCH_TRIALS'),
      concurrency: envNumber(env, 'CEILINGBENCH_CONCURRENCY'),
      out: env.CEILINGBENCH_OUT || undefined,
      missing: env.CEILINGBENCH_MISSING || undefined,
    }).filter(([, v]) => v !== undefined),
  );
  const limitsFromEnv = Object.fromEntries(
    Object.entries({
      maxCost: envNumber(env, 'CEILINGBENCH_MAX_COST'),
      maxTokens: envNumber(env, 'CEILINGBENCH_MAX_TOKENS'),
      maxCalls: envNumber(env, 'CEILINGBENCH_MAX_CALLS'),
    }).filter(([, v]) => v !== undefined),
  );
  const limits = { ...(fileParsed.data.limits ?? {}), ...limitsFromEnv };
  const merged = configSchema.safeParse({ ...fileParsed.data, ...fromEnv, gates, limits });
  if (!merged.success) throw formatZodError('configuration (file + CEILINGBENCH_* environment)', merged.error);
  return merged.data;
}
