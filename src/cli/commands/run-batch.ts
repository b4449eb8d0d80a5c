import { type RunConfig, resolveRunConfig } from '../../config/resolve.js';
import { BatchUnsupportedError, ProviderFatalError } from '../../errors.js';
import type { Price, SpendLimits, SpendStop } from '../../schema/spend.js';
import { recordBatchPass } from '../../spend/batch-pass.js';
import { batchPrice, costOf, priceFor } from '../../spend/price.js';
import { CACHE_MODES, type CacheMode, ResponseCache } from '../../subjects/cache/store.js';
import type { Env } from '../../subjects/openai/endpoint.js';
import { openAiOptionsFromEnv } from '../../subjects/openai/env-options.js';
import type { TrialRequest } from '../../subjects/subject.js';
import type { CliIo } from '../command.js';
import { importConfigFile } from './plan.js';

/**
 * The batch pass of `ceilingbench run --batch` (or `batch` in the configuration): before Vitest starts, the trials
 * the selected grid cells will ask each openai subject are answered through the provider's batch API into the
 * response cache (src/subjects/openai/batch-run.ts); the Vitest run that follows then finds them there, and its openai
 * subjects send nothing live (a trial no batch answered is `api`, one a limit held back `budget`). Returns undefined
 * when the run is not in batch mode, else the number of trials left out — held back by a spending limit, or still in
 * batches when the wait ended (the run is partial: exit 4, and a rerun completes it).
 */
export async function batchBeforeRun(options: {
  root: string;
  env: Env;
  /** `--project` as typed (undefined: every standard project). */
  projects: string[] | undefined;
  testNamePattern: string | undefined;
  shard: string | undefined;
  io: CliIo;
}): Promise<{ partial: number } | undefined> {
  const { root, env, io } = options;
  const config = await batchConfig(env, root);
  if (config === undefined) return undefined;
  if (options.testNamePattern !== undefined || options.shard !== undefined)
    throw new BatchUnsupportedError(
      `--batch: ${options.testNamePattern !== undefined ? '-t' : '--shard'} selects tests while the batch holds whole projects — name the projects with --project instead`,
    );
  const mode = (env.CEILINGBENCH_CACHE_MODE || 'read-write') as CacheMode;
  if (mode !== 'read-write')
    throw new BatchUnsupportedError(
      `--batch: the answers go through the response cache, which CEILINGBENCH_CACHE_MODE=${CACHE_MODES.includes(mode) ? mode : `'${mode}'`} does not both read and write — unset it`,
    );
  const [{ batchTrials }, { runBatches }, { countChatTokens }] = await Promise.all([
    import('../../plan/batch-trials.js'),
    import('../../subjects/openai/batch-run.js'),
    import('../../spend/tokenizer.js'),
  ]);
  const subjects = batchTrials(config, options.projects);
  const settings = typeof config.batch === 'object' ? config.batch : {};
  const admit = spendAdmission(config.limits);
  let partial = 0;
  for (const { spec, model, trials } of subjects) {
    const listPrice = priceFor(config.prices, { spec, model });
    const price = listPrice ? batchPrice(listPrice) : null;
    io.stderr(`ceilingbench: batch mode — ${spec}: ${trials.length} trial(s) of the selected cells\n`);
    const summary = await runBatches({
      ...openAiOptionsFromEnv(env),
      model,
      env,
      cache: new ResponseCache(config.cacheDir, 'read-write', (message) => io.stderr(`ceilingbench: ${message}\n`)),
      trials,
      ...(settings.size !== undefined ? { size: settings.size } : {}),
      ...(settings.pollSeconds !== undefined ? { pollSeconds: settings.pollSeconds } : {}),
      ...(settings.waitMinutes !== undefined ? { waitMinutes: settings.waitMinutes } : {}),
      admit: (request, messages) => admit(request, countChatTokens(messages, model), price),
      progress: (line) => io.stderr(`ceilingbench: ${line}\n`),
    }).catch((error: unknown) => {
      throw batchRefusal(error, spec, env);
    });
    partial += summary.held + summary.running;
    const tokens = summary.billed.prompt + summary.billed.completion;
    // the run's limits and its report count what this pass bought (one call per answer it collected) and held back
    recordBatchPass({
      spent: { calls: summary.answered, tokens, costUsd: price ? costOf(summary.billed, price) : null },
      notSent: summary.held,
      stoppedBy: summary.held > 0 ? admit.stoppedBy : null,
    });
    const cost = price ? ` = $${costOf(summary.billed, price).toFixed(4)} at the batch price` : '';
    io.stderr(
      `ceilingbench: batch mode — ${spec}: ${summary.cached} already cached, ${summary.submitted} submitted in ` +
        `${summary.created} new batch(es), ${summary.resumed} earlier batch(es) picked up; ${summary.answered} answered ` +
        `(${tokens.toLocaleString('en-US')} tokens${cost}), ${summary.failed} failed (api), ${summary.held} held back by a limit (budget)` +
        (summary.running > 0
          ? `; ${summary.running} still in batches at the provider after the wait: run this command again to collect them`
          : '') +
        '\n',
    );
  }
  return { partial };
}

/**
 * An error of the file or batch endpoints as the run's stop (exit 3): the endpoint answered with a status (it serves
 * no batch API, refused the key, rejected the file) or could not be reached; the message is the provider's, with the
 * key and header values removed. Anything else is passed on as it is.
 */
export function batchRefusal(error: unknown, spec: string, env: Env): unknown {
  const status = (error as { status?: unknown }).status;
  const connection = (error as Error)?.name === 'APIConnectionError';
  if (typeof status !== 'number' && !connection) return error;
  const secrets = [env.OPENAI_API_KEY, ...Object.values(openAiOptionsFromEnv(env).headers ?? {})].filter(
    (v): v is string => typeof v === 'string' && v.length >= 4,
  );
  let message = (error as Error).message;
  for (const secret of secrets) message = message.split(secret).join('[redacted]');
  const what = connection ? 'could not be reached' : `answered ${status}`;
  return new ProviderFatalError(
    `batch mode: ${spec}: the endpoint's file/batch API ${what} (${message}) — nothing more was submitted; check that ` +
      'OPENAI_BASE_URL serves /files and /batches (docs/providers.md, "Batch mode"), or run without --batch',
  );
}

/**
 * The run's configuration when it is in batch mode — the flag or CEILINGBENCH_BATCH=true, or the resolved
 * configuration's `batch` (wherever it comes from: a value the config file imports counts as one it writes) — else
 * undefined (CEILINGBENCH_BATCH=false: off, nothing loaded). The configuration is resolved as the plugin will resolve
 * it (about 60 ms once Vite is loaded, which the run loads next anyway). Unless batch mode was asked for on the
 * command line or in the environment, a configuration that does not load is left to the Vitest run, which reports it
 * as in any run.
 */
export async function batchConfig(env: Env, root: string): Promise<RunConfig | undefined> {
  const flag = env.CEILINGBENCH_BATCH?.trim().toLowerCase();
  if (flag === 'false') return undefined;
  let config: RunConfig;
  try {
    config = await resolveRunConfig({ root, env, importFile: (path) => importConfigFile(path, root) });
  } catch (error) {
    if (flag === 'true') throw error;
    return undefined;
  }
  return config.batch === false ? undefined : config;
}

/**
 * The run's spending limits applied before a request is batched: each request counts as one call and as its prompt
 * tokens plus its whole output budget, at the batch price (the most it can cost, so a cap holds whatever the answers
 * are); the first request that would pass a limit, and every later one, is held back (outcome `budget`).
 */
export interface SpendAdmission {
  /** Why `request` is held back, or undefined: admitted. */
  (request: TrialRequest, promptTokens: number, price: Price | null): string | undefined;
  /** The limit that held requests back (then every later one is), or null. */
  readonly stoppedBy: SpendStop | null;
}

export function spendAdmission(limits: SpendLimits): SpendAdmission {
  const spent = { calls: 0, tokens: 0, cost: 0 };
  let stopped: { reason: string; by: SpendStop } | undefined;
  const admit = (request: TrialRequest, promptTokens: number, price: Price | null): string | undefined => {
    if (stopped) return stopped.reason;
    const tokens = promptTokens + request.maxOutputTokens;
    const cost = price
      ? costOf({ prompt: promptTokens, cachedPrompt: 0, completion: request.maxOutputTokens, reasoning: 0 }, price)
      : 0;
    if (limits.maxCalls !== undefined && spent.calls + 1 > limits.maxCalls)
      stopped = { reason: `budget: not batched — maxCalls ${limits.maxCalls} reached`, by: 'maxCalls' };
    else if (limits.maxTokens !== undefined && spent.tokens + tokens > limits.maxTokens)
      stopped = {
        reason: `budget: not batched — maxTokens ${limits.maxTokens} would be passed (prompt + whole output budget)`,
        by: 'maxTokens',
      };
    else if (limits.maxCost !== undefined && (price === null || spent.cost + cost > limits.maxCost))
      stopped = {
        reason:
          price === null
            ? 'budget: not batched — maxCost is set and this subject has no price'
            : `budget: not batched — maxCost $${limits.maxCost} would be passed at the batch price (whole output budget)`,
        by: 'maxCost',
      };
    if (stopped) return stopped.reason;
    spent.calls++;
    spent.tokens += tokens;
    spent.cost += cost;
    return undefined;
  };
  return Object.defineProperty(admit, 'stoppedBy', { get: () => stopped?.by ?? null }) as SpendAdmission;
}
