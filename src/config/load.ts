import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import type { ReasoningDelimiter } from '../tasks/reasoning-channels.js';
import { DEVELOPMENT_ENV_NAMES, ENV_NAMES, ENV_PREFIX } from './env-names.js';
import { ConfigError, formatZodError } from './errors.js';
import { nearestNames } from './nearest-names.js';
import { type CeilingbenchConfig, configSchema, gatesSchema, reasoningDelimiterSchema } from './schema.js';

/**
 * Every form of the configuration file, each read (TypeScript through Vite's module runner, JavaScript natively);
 * CEILINGBENCH_CONFIG names another file. Two of them in one root is a configuration error naming both: one would
 * silently win.
 */
export const CONFIG_FILES = [
  'ceilingbench.config.ts',
  'ceilingbench.config.mts',
  'ceilingbench.config.cts',
  'ceilingbench.config.js',
  'ceilingbench.config.mjs',
  'ceilingbench.config.cjs',
] as const;
export const CONFIG_FILE = CONFIG_FILES[0];

type Env = Record<string, string | undefined>;

const KNOWN_ENV = new Set<string>([...ENV_NAMES, ...DEVELOPMENT_ENV_NAMES]);

/**
 * One warning line per CEILINGBENCH_* variable of `env` that ceilingbench does not read, with the names it could
 * mean (TRAILS for CEILINGBENCH_TRIALS). `caseInsensitive`: Windows, where the environment's names
 * are read in any case.
 */
export function unknownEnvWarnings(
  env: Env,
  caseInsensitive = process.platform === 'win32',
): Array<{ name: string; line: string }> {
  const suffixes = [...KNOWN_ENV].map((name) => name.slice(ENV_PREFIX.length));
  return Object.keys(env)
    .filter((name) => name.startsWith(ENV_PREFIX) && env[name] !== undefined)
    .filter((name) => !KNOWN_ENV.has(caseInsensitive ? name.toUpperCase() : name))
    .sort()
    .map((name) => {
      const near = nearestNames(name.slice(ENV_PREFIX.length), suffixes).slice(0, 3);
      const hint = near.length > 0 ? `did you mean ${near.map((s) => ENV_PREFIX + s).join(' or ')}?` : 'it is ignored';
      return { name, line: `ceilingbench: warning: ${name} is not a ceilingbench variable — ${hint}\n` };
    });
}

/** The names warned of in this process: one global set, as Vitest may load a second copy of this module. */
const WARNED_KEY = Symbol.for('ceilingbench.warnedEnvNames');
function warnedNames(): Set<string> {
  const holder = globalThis as { [WARNED_KEY]?: Set<string> };
  holder[WARNED_KEY] ??= new Set<string>();
  return holder[WARNED_KEY];
}

/**
 * Warns of each unknown CEILINGBENCH_* variable once per process. A warning, never an error: a variable of a newer
 * version must not break a run of this one.
 */
export function warnUnknownEnv(
  env: Env = process.env,
  write: (line: string) => void = (line) => process.stderr.write(line),
  warned: Set<string> = warnedNames(),
): void {
  for (const { name, line } of unknownEnvWarnings(env)) {
    if (warned.has(name)) continue;
    warned.add(name);
    write(line);
  }
}

function envNumber(env: Env, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value))
    throw new ConfigError(`${name}: '${raw}' is not a number — set it to a number, e.g. ${name}=40`);
  return value;
}

/** A variable that is `true` or `false` (any case); unset or empty: undefined. */
function envBoolean(env: Env, name: string): boolean | undefined {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return undefined;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  throw new ConfigError(`${name}: '${env[name]}' is neither true nor false — e.g. ${name}=false`);
}

/** CEILINGBENCH_EXAMPLES: `all`, or a whole number of examples per outcome kind (0 = none). */
function envExamples(env: Env): number | 'all' | undefined {
  const raw = env.CEILINGBENCH_EXAMPLES?.trim();
  if (raw === undefined || raw === '') return undefined;
  if (raw === 'all') return 'all';
  if (!/^\d+$/.test(raw)) {
    throw new ConfigError(
      `CEILINGBENCH_EXAMPLES: '${raw}' is neither 'all' nor a whole number — e.g. CEILINGBENCH_EXAMPLES=3 (0 = none)`,
    );
  }
  return Number(raw);
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

const TAGS_EXAMPLE = "CEILINGBENCH_REASONING_TAGS='<scratchpad>|</scratchpad>,[[plan]]|[[/plan]]'";

/**
 * CEILINGBENCH_REASONING_TAGS: comma-separated `open|close` pairs (`<scratchpad>|</scratchpad>,[PLAN]|[/PLAN]`),
 * or, for a delimiter that itself holds a comma or a bar, a JSON array of `{"open": …, "close": …}` (a value
 * starting with `[` followed by `{`). Blank or absent: none. Each pair is checked like the file's
 * `reasoningDelimiters`.
 */
export function parseReasoningTags(raw: string | undefined, source = 'CEILINGBENCH_REASONING_TAGS'): unknown[] {
  const text = raw?.trim() ?? '';
  if (text === '') return [];
  if (/^\[\s*\{/.test(text)) {
    try {
      const items: unknown = JSON.parse(text);
      if (Array.isArray(items)) return items;
    } catch (error) {
      throw new ConfigError(`${source}: not a valid JSON array (${(error as Error).message}) — e.g. ${TAGS_EXAMPLE}`);
    }
  }
  return text.split(',').map((pair) => {
    const parts = pair.split('|');
    if (parts.length !== 2 || parts.some((part) => part.trim() === '')) {
      throw new ConfigError(
        `${source}: '${pair.trim()}' is not an open|close pair — separate the two delimiters by one '|' and pairs by ',', e.g. ${TAGS_EXAMPLE}`,
      );
    }
    return { open: parts[0]?.trim(), close: parts[1]?.trim() };
  });
}

/**
 * CEILINGBENCH_SUBJECTS: a comma list (`sim:retention?p=0.9,openai:gpt-4o-mini`), or a JSON array of strings for a
 * spec that itself holds a comma (only a replay path or an odd model name can; sim parameters are numbers).
 * A value starting with `[` is the JSON form: no subject spec starts with `[`.
 */
export function parseSubjectList(raw: string, source = 'CEILINGBENCH_SUBJECTS'): string[] | undefined {
  const text = raw.trim();
  if (text === '') return undefined;
  let items: unknown;
  if (text.startsWith('[')) {
    try {
      items = JSON.parse(text);
    } catch (error) {
      throw new ConfigError(
        `${source}: not a valid JSON array (${(error as Error).message}) — e.g. ${source}='["sim:default","oracle"]'`,
      );
    }
    if (!Array.isArray(items) || !items.every((s) => typeof s === 'string')) {
      throw new ConfigError(
        `${source}: the JSON form must be an array of subject strings, e.g. ["sim:default","oracle"]`,
      );
    }
  } else items = text.split(',');
  const specs = (items as string[]).map((s) => s.trim());
  if (specs.some((s) => s === '')) {
    throw new ConfigError(
      `${source}: '${raw}' has an empty entry — separate subjects by single commas, e.g. ${source}=sim:default,oracle`,
    );
  }
  return specs;
}

/** The same subject twice would be one subject in the report: an error naming it. */
function checkDistinct(specs: readonly string[], source: string): void {
  const seen = new Set<string>();
  for (const spec of specs) {
    if (seen.has(spec)) {
      throw new ConfigError(
        `${source}: subject '${spec}' is listed twice — list each subject once (two copies of one model: give them different seeds, e.g. sim:retention?p=0.9&seed=1)`,
      );
    }
    seen.add(spec);
  }
}

interface SubjectList {
  list: string[];
  /** Where the list came from, for error messages. */
  source: string;
}

/** The environment's subjects: CEILINGBENCH_SUBJECTS or CEILINGBENCH_SUBJECT (never both), or none. */
function envSubjects(env: Env): SubjectList | undefined {
  const list = env.CEILINGBENCH_SUBJECTS ? parseSubjectList(env.CEILINGBENCH_SUBJECTS) : undefined;
  const single = env.CEILINGBENCH_SUBJECT?.trim() || undefined;
  if (list && single) {
    throw new ConfigError(
      'CEILINGBENCH_SUBJECT and CEILINGBENCH_SUBJECTS are both set — set one (CEILINGBENCH_SUBJECTS for several subjects)',
    );
  }
  if (list) return { list, source: 'CEILINGBENCH_SUBJECTS' };
  return single ? { list: [single], source: 'CEILINGBENCH_SUBJECT' } : undefined;
}

/** The file's subjects: `subjects` or `subject` (never both), else the default. */
function fileSubjects(
  file: unknown,
  path: string | null,
  parsed: { subject?: string; subjects?: string[] },
): SubjectList {
  const where = path ?? 'configuration file';
  const raw = file !== null && typeof file === 'object' ? (file as Record<string, unknown>) : {};
  if (raw.subject !== undefined && raw.subjects !== undefined) {
    throw new ConfigError(
      `${where}: both 'subject' and 'subjects' are set — keep one ('subjects: [...]' for several subjects)`,
    );
  }
  if (parsed.subjects) return { list: parsed.subjects, source: `${where}: subjects` };
  return { list: [parsed.subject ?? 'sim:default'], source: where };
}

/**
 * The run's subjects alone — the environment's over the file's over the default, distinct — as `loadConfig`
 * resolves them; the file is read only when the environment names no subject. The plugin declares its projects
 * from this list before Vitest starts.
 */
export async function loadSubjects(
  env: Env = process.env,
  cwd = process.cwd(),
  importFile: (path: string) => Promise<unknown> = nativeImport,
): Promise<string[]> {
  warnUnknownEnv(env);
  const fromEnv = envSubjects(env);
  if (fromEnv) {
    checkDistinct(fromEnv.list, fromEnv.source);
    return fromEnv.list;
  }
  return (await loadConfig(env, cwd, importFile)).subjects;
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

/** The configuration file of a root: CEILINGBENCH_CONFIG (relative to the root), or the one of CONFIG_FILES there. */
export function findConfigFile(env: Env, root: string): string | null {
  const explicit = env.CEILINGBENCH_CONFIG;
  if (explicit) {
    const path = resolve(root, explicit);
    if (!existsSync(path)) {
      throw new ConfigError(`CEILINGBENCH_CONFIG: no file at ${path} — point it at an existing ceilingbench.config.ts`);
    }
    return path;
  }
  const found = CONFIG_FILES.filter((name) => existsSync(resolve(root, name)));
  if (found.length > 1) {
    throw new ConfigError(
      `${found.join(' and ')} are both in ${root}: ceilingbench reads one configuration file — merge them into one ` +
        'and delete the other (or name the one to read with CEILINGBENCH_CONFIG)',
    );
  }
  return found.length === 1 ? resolve(root, found[0]) : null;
}

function reasoningDelimitersFromEnv(env: Env): ReasoningDelimiter[] {
  const parsed = z.array(reasoningDelimiterSchema).safeParse(parseReasoningTags(env.CEILINGBENCH_REASONING_TAGS));
  if (!parsed.success) throw formatZodError('CEILINGBENCH_REASONING_TAGS', parsed.error);
  return parsed.data;
}

/** The file's delimiters, then the environment's; a pair given twice (in any case) counts once. */
function uniqueDelimiters(delimiters: readonly ReasoningDelimiter[]): ReasoningDelimiter[] {
  const seen = new Set<string>();
  return delimiters.filter((d) => {
    const key = JSON.stringify([d.open.toLowerCase(), d.close.toLowerCase()]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** CEILINGBENCH_BATCH over the file's `batch`: off, or on with the file's settings when it has them. */
function batchFromEnv(fromEnv: boolean | undefined, fromFile: unknown): unknown {
  if (fromEnv === undefined) return undefined;
  return fromEnv && typeof fromFile === 'object' && fromFile !== null ? fromFile : fromEnv;
}

/**
 * The effective configuration: defaults < ceilingbench.config.ts (or CEILINGBENCH_CONFIG) < environment.
 * Environment: CEILINGBENCH_SUBJECT or CEILINGBENCH_SUBJECTS (a comma list or a JSON array; see parseSubjectList),
 * _SEED, _TRIALS, _CONCURRENCY, _OUT, _HTML (true|false), _MISSING, _EXAMPLES, _GATES (JSON, merged
 * per project over the file's gates), _MAX_COST, _MAX_TOKENS, _MAX_CALLS (each over the file's `limits`),
 * _REASONING_TAGS (added to the file's `reasoningDelimiters`; see parseReasoningTags).
 */
export async function loadConfig(
  env: Env = process.env,
  cwd = process.cwd(),
  importFile: (path: string) => Promise<unknown> = nativeImport,
): Promise<CeilingbenchConfig & { subjects: string[] }> {
  warnUnknownEnv(env);
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

  const subjects = envSubjects(env) ?? fileSubjects(fromFile, path, fileParsed.data);
  checkDistinct(subjects.list, subjects.source);
  const fromEnv = Object.fromEntries(
    Object.entries({
      seed: envNumber(env, 'CEILINGBENCH_SEED'),
      trials: envNumber(env, 'CEILINGBENCH_TRIALS'),
      concurrency: envNumber(env, 'CEILINGBENCH_CONCURRENCY'),
      out: env.CEILINGBENCH_OUT || undefined,
      html: envBoolean(env, 'CEILINGBENCH_HTML'),
      missing: env.CEILINGBENCH_MISSING || undefined,
      reading: env.CEILINGBENCH_READING || undefined,
      examples: envExamples(env),
      // on: the file's settings when it gives them (`{ size, pollSeconds }`), else true
      batch: batchFromEnv(envBoolean(env, 'CEILINGBENCH_BATCH'), fileParsed.data.batch),
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
  const envTags = reasoningDelimitersFromEnv(env);
  const reasoningDelimiters = uniqueDelimiters([...(fileParsed.data.reasoningDelimiters ?? []), ...envTags]);
  const merged = configSchema.safeParse({
    ...fileParsed.data,
    ...fromEnv,
    subject: subjects.list[0],
    subjects: subjects.list,
    gates,
    limits,
    reasoningDelimiters,
  });
  if (!merged.success) throw formatZodError('configuration (file + CEILINGBENCH_* environment)', merged.error);
  // every loaded configuration carries the list; `subject` is its first entry
  return { ...merged.data, subjects: merged.data.subjects ?? [merged.data.subject] };
}
