import { resolve } from 'node:path';
import { UsageError } from '../errors.js';
import type { Prices } from '../schema/spend.js';
import type { SpendGate } from '../spend/ledger.js';
import { resolveTask as registryResolveTask } from '../tasks/registry.js';
import { CACHE_MODES, type CacheMode, type CacheReporter, DEFAULT_CACHE_DIR, ResponseCache } from './cache/store.js';
import { codeHash } from './function/code-hash.js';
import type { DefinedSubject } from './function/define.js';
import { loadConfigSubject, loadModuleSubject, type ModuleImporter } from './function/module-ref.js';
import type { Env } from './openai/endpoint.js';
import { openAiOptionsFromEnv } from './openai/env-options.js';
import type { OpenAiSubjectOptions } from './openai/openai-subject.js';
import { createOracleSubject } from './oracle.js';
import { createReplaySubject } from './replay/index.js';
import { createSimSubject, type TaskResolver } from './sim/sim-subject.js';
import { parseSubjectSpec } from './spec.js';
import type { Subject } from './subject.js';

export const DEFAULT_SUBJECT = 'sim:default';

export interface CreateSubjectOptions {
  /** Default CEILINGBENCH_CACHE_DIR, else .ceilingbench/cache. */
  cacheDir?: string;
  /** Default CEILINGBENCH_CACHE_MODE, else 'read-write'. */
  cacheMode?: CacheMode;
  /** Environment to read (default process.env). */
  env?: Env;
  /** Run-level seed for sim subjects whose spec has no `seed` parameter. */
  seed?: number;
  /** Task plugins for sim/oracle; default the task registry. */
  resolveTask?: TaskResolver;
  /** Provider, retry and limiter options of `openai:` subjects; they override the CEILINGBENCH_* env options. */
  openai?: Omit<OpenAiSubjectOptions, 'model' | 'cache' | 'env' | 'specText'>;
  /** Receives cache and replay warnings (default process.emitWarning). */
  report?: CacheReporter;
  /** The run's spend ledger for subjects that are functions (`openai:` subjects take theirs from `openai`). */
  spend?: { gate: SpendGate; prices: Prices };
  /** The project root a `module:` path is relative to (default the current directory). */
  root?: string;
  /** How a `module:` subject's module is imported (default native `import()`; Vitest passes its module runner). */
  importModule?: ModuleImporter;
  /** The configuration file a `function:<id>` subject is listed in (the run's `configFile`). */
  configFile?: string | null;
}

function cacheModeFrom(options: CreateSubjectOptions, env: Env): CacheMode {
  if (options.cacheMode) return options.cacheMode;
  const fromEnv = env.CEILINGBENCH_CACHE_MODE;
  if (fromEnv === undefined || fromEnv === '') return 'read-write';
  if ((CACHE_MODES as readonly string[]).includes(fromEnv)) return fromEnv as CacheMode;
  throw new UsageError(`CEILINGBENCH_CACHE_MODE '${fromEnv}' is not valid; use one of: ${CACHE_MODES.join(', ')}`);
}

/** Builds the subject a spec string names; throws SubjectSpecError (exit 2) on a bad spec. */
export async function createSubject(spec: string, options: CreateSubjectOptions = {}): Promise<Subject> {
  const parsed = parseSubjectSpec(spec);
  const env = options.env ?? process.env;
  const resolveTask = options.resolveTask ?? registryResolveTask;
  const specText = spec.trim();
  switch (parsed.kind) {
    case 'sim':
      return createSimSubject(parsed, { specText, resolveTask, seed: options.seed });
    case 'oracle':
      return createOracleSubject(resolveTask);
    case 'replay':
      return createReplaySubject(parsed.path, parsed.model, { specText, report: options.report });
    case 'openai': {
      // loaded here: the OpenAI SDK and undici cost ~0.25 s of a start-up that a simulated subject never needs
      const { createOpenAiSubject } = await import('./openai/openai-subject.js');
      return createOpenAiSubject({
        ...openAiOptionsFromEnv(env),
        ...options.openai,
        model: parsed.model,
        env,
        specText,
        cache: responseCache(options, env),
      });
    }
    case 'function': {
      const root = options.root ?? process.cwd();
      const defined =
        parsed.source === 'module'
          ? await loadModuleSubject(parsed, specText, root, options.importModule)
          : await loadConfigSubject(parsed.id, specText, options.configFile, options.importModule);
      // unpinned, the subject is known by its code: the module (or the configuration file) and its repository imports
      const source = parsed.source === 'module' ? resolve(root, parsed.path) : options.configFile;
      const hash = !defined.pinned && source ? codeHash(source, root) : undefined;
      return subjectOfFunction(defined, { ...options, specText, ...(hash ? { codeHash: hash } : {}) });
    }
  }
}

/** The response cache a paid subject writes to (CEILINGBENCH_CACHE_DIR / _MODE), none when the mode is `off`. */
function responseCache(options: CreateSubjectOptions, env: Env): ResponseCache | undefined {
  const mode = cacheModeFrom(options, env);
  const dir = options.cacheDir ?? (env.CEILINGBENCH_CACHE_DIR || undefined) ?? DEFAULT_CACHE_DIR;
  return mode === 'off' ? undefined : new ResponseCache(dir, mode, options.report);
}

/**
 * A `defineSubject` subject with the run's cache, spend ledger, limiter and timeouts (the CEILINGBENCH_* variables
 * an `openai:` subject reads for them). `specText` names it in the report: its `module:` spec, else `function:<id>`.
 */
export async function subjectOfFunction(
  defined: DefinedSubject,
  options: CreateSubjectOptions & { specText?: string; codeHash?: string } = {},
): Promise<Subject> {
  // loaded here, like the OpenAI subject: its retry and error classes are the SDK's
  const { createFunctionSubject } = await import('./function/function-subject.js');
  const env = options.env ?? process.env;
  const { limiter, requestTimeoutMs, trialTimeoutMs } = openAiOptionsFromEnv(env);
  const spend = options.spend ?? options.openai?.spend;
  return createFunctionSubject(defined, {
    ...(options.specText !== undefined ? { specText: options.specText } : {}),
    ...(options.codeHash !== undefined ? { codeHash: options.codeHash } : {}),
    cache: responseCache(options, env),
    ...(spend ? { spend } : {}),
    ...(limiter ? { limiter } : {}),
    ...(requestTimeoutMs !== undefined ? { requestTimeoutMs } : {}),
    ...(trialTimeoutMs !== undefined ? { trialTimeoutMs } : {}),
  });
}

/** The subject of CEILINGBENCH_SUBJECT, default `sim:default`. */
export function subjectFromEnv(options: CreateSubjectOptions = {}): Promise<Subject> {
  const env = options.env ?? process.env;
  return createSubject(env.CEILINGBENCH_SUBJECT || DEFAULT_SUBJECT, options);
}
