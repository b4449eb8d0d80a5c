import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError, formatZodError } from './errors';
import { type CeilingbenchConfig, configSchema, gatesSchema } from './schema';

export const CONFIG_FILE = 'ceilingbench.config.ts';

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

async function readConfigFile(path: string): Promise<unknown> {
  try {
    const module = (await import(pathToFileURL(path).href)) as { default?: unknown };
    return module.default ?? {};
  } catch (error) {
    throw new ConfigError(`${path}: cannot be loaded (${(error as Error).message}) — fix the file or remove it`);
  }
}

/**
 * The effective configuration: defaults < ceilingbench.config.ts (or CEILINGBENCH_CONFIG) < environment.
 * Environment: CEILINGBENCH_SUBJECT, _SEED, _TRIALS, _CONCURRENCY, _OUT, _MISSING, _GATES (JSON, merged
 * per project over the file's gates).
 */
export async function loadConfig(env: Env = process.env, cwd = process.cwd()): Promise<CeilingbenchConfig> {
  const explicit = env.CEILINGBENCH_CONFIG;
  const path = resolve(cwd, explicit ?? CONFIG_FILE);
  if (explicit && !existsSync(path)) {
    throw new ConfigError(`CEILINGBENCH_CONFIG: no file at ${path} — point it at an existing ceilingbench.config.ts`);
  }
  const fromFile = existsSync(path) ? await readConfigFile(path) : {};
  const fileParsed = configSchema.partial().safeParse(fromFile);
  if (!fileParsed.success) throw formatZodError(path, fileParsed.error);

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
  const merged = configSchema.safeParse({ ...fileParsed.data, ...fromEnv, gates });
  if (!merged.success) throw formatZodError('configuration (file + CEILINGBENCH_* environment)', merged.error);
  return merged.data;
}
