import { z } from 'zod';
import { UsageError } from '../../errors.js';
import type { LimiterConfig } from '../limiter.js';
import type { Env } from './endpoint.js';
import { headerProblem } from './headers.js';
import type { ProviderOptions } from './request-body.js';
import { STREAM_MODES, type StreamMode } from './stream-mode.js';

/**
 * Provider and limiter options from the environment, for runs configured without code. `none` removes a
 * parameter ceilingbench would otherwise send.
 *
 * | variable | option |
 * |---|---|
 * | CEILINGBENCH_CONCURRENCY | requests in flight per endpoint (process-wide); unset = adaptive |
 * | CEILINGBENCH_RPM / CEILINGBENCH_TPM | requests / tokens per minute per endpoint |
 * | CEILINGBENCH_SYSTEM_ROLE | system \| developer \| merge |
 * | CEILINGBENCH_MAX_TOKENS_PARAM | max_completion_tokens \| max_tokens |
 * | CEILINGBENCH_TEMPERATURE | a number, or `none` (not sent); default 0 |
 * | CEILINGBENCH_REASONING_EFFORT | minimal \| low \| medium \| high \| none |
 * | CEILINGBENCH_PROVIDER_SEED | integer `seed` sent with every request, or `none`; default: not sent |
 * | CEILINGBENCH_PARAMS | JSON object of extra body fields (string, number, boolean; null removes one) |
 * | CEILINGBENCH_HEADERS | JSON object of request headers (Azure `api-key`, OpenRouter `HTTP-Referer`, `X-Title`) |
 * | CEILINGBENCH_STREAM | never \| always \| auto (stream when the output budget is above 8192); default never |
 * | CEILINGBENCH_REQUEST_TIMEOUT_MS | one request, headers and body (default 300000) |
 * | CEILINGBENCH_TRIAL_TIMEOUT_MS | one trial, retries and backoffs included (default 540000) |
 * | CEILINGBENCH_RETRY_MAX_MS | one outage of the endpoint: its 429/502/503/504s retried that long (default 300000) |
 *
 * CEILINGBENCH_SEED is the run (instance) seed only; it is never sent to the provider. Header values are
 * never echoed in an error message, a report, a log or the cache.
 */
const positive = z.string().trim().min(1).transform(Number).pipe(z.number().positive());
const none = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.literal('none'))
  .transform(() => null);
const finite = z.string().trim().min(1).transform(Number).pipe(z.number());
const integer = finite.pipe(z.number().int());
const json = <T extends z.ZodType>(inner: T) =>
  z
    .string()
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'not JSON' });
        return z.NEVER;
      }
    })
    .pipe(inner);
const schema = z.object({
  CEILINGBENCH_CONCURRENCY: positive.pipe(z.number().int()).optional(),
  CEILINGBENCH_RPM: positive.optional(),
  CEILINGBENCH_TPM: positive.optional(),
  CEILINGBENCH_SYSTEM_ROLE: z.enum(['system', 'developer', 'merge']).optional(),
  CEILINGBENCH_MAX_TOKENS_PARAM: z.enum(['max_completion_tokens', 'max_tokens']).optional(),
  CEILINGBENCH_TEMPERATURE: z.union([none, finite]).optional(),
  CEILINGBENCH_REASONING_EFFORT: z.union([none, z.enum(['minimal', 'low', 'medium', 'high'])]).optional(),
  CEILINGBENCH_PROVIDER_SEED: z.union([none, integer]).optional(),
  CEILINGBENCH_PARAMS: json(z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))).optional(),
  CEILINGBENCH_HEADERS: json(
    z.record(z.string().min(1), z.string()).superRefine((headers, ctx) => {
      for (const [name, value] of Object.entries(headers)) {
        const problem = headerProblem(name, value);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }
    }),
  ).optional(),
  CEILINGBENCH_STREAM: z.string().trim().toLowerCase().pipe(z.enum(STREAM_MODES)).optional(),
  CEILINGBENCH_REQUEST_TIMEOUT_MS: positive.pipe(z.number().int()).optional(),
  CEILINGBENCH_TRIAL_TIMEOUT_MS: positive.pipe(z.number().int()).optional(),
  CEILINGBENCH_RETRY_MAX_MS: positive.pipe(z.number().int()).optional(),
});

/** Variables whose value must never appear in an error message. */
const SECRET_VARIABLES = new Set(['CEILINGBENCH_HEADERS']);

export interface EnvOptions extends ProviderOptions {
  limiter?: LimiterConfig;
  headers?: Record<string, string>;
  stream?: StreamMode;
  requestTimeoutMs?: number;
  trialTimeoutMs?: number;
  retryMaxMs?: number;
}

export function openAiOptionsFromEnv(env: Env): EnvOptions {
  const present = Object.fromEntries(
    Object.keys(schema.shape).flatMap((name) => (env[name] ? [[name, env[name]]] : [])),
  );
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0]);
    const shown = SECRET_VARIABLES.has(name) ? '(value not shown)' : `'${env[name]}'`;
    throw new UsageError(`${name}=${shown} is not valid (${issue?.message}); fix or unset it`);
  }
  const e = parsed.data;
  const limiter: LimiterConfig = {};
  if (e.CEILINGBENCH_CONCURRENCY !== undefined) limiter.concurrency = e.CEILINGBENCH_CONCURRENCY;
  if (e.CEILINGBENCH_RPM !== undefined) limiter.requestsPerMinute = e.CEILINGBENCH_RPM;
  if (e.CEILINGBENCH_TPM !== undefined) limiter.tokensPerMinute = e.CEILINGBENCH_TPM;
  return {
    ...(Object.keys(limiter).length > 0 ? { limiter } : {}),
    ...(e.CEILINGBENCH_SYSTEM_ROLE ? { systemRole: e.CEILINGBENCH_SYSTEM_ROLE } : {}),
    ...(e.CEILINGBENCH_MAX_TOKENS_PARAM ? { maxTokensParam: e.CEILINGBENCH_MAX_TOKENS_PARAM } : {}),
    ...(e.CEILINGBENCH_TEMPERATURE !== undefined ? { temperature: e.CEILINGBENCH_TEMPERATURE } : {}),
    ...(e.CEILINGBENCH_REASONING_EFFORT !== undefined ? { reasoningEffort: e.CEILINGBENCH_REASONING_EFFORT } : {}),
    ...(e.CEILINGBENCH_PROVIDER_SEED !== undefined ? { seed: e.CEILINGBENCH_PROVIDER_SEED } : {}),
    ...(e.CEILINGBENCH_PARAMS !== undefined ? { params: e.CEILINGBENCH_PARAMS } : {}),
    ...(e.CEILINGBENCH_HEADERS !== undefined ? { headers: e.CEILINGBENCH_HEADERS } : {}),
    ...(e.CEILINGBENCH_STREAM !== undefined ? { stream: e.CEILINGBENCH_STREAM } : {}),
    ...(e.CEILINGBENCH_REQUEST_TIMEOUT_MS !== undefined ? { requestTimeoutMs: e.CEILINGBENCH_REQUEST_TIMEOUT_MS } : {}),
    ...(e.CEILINGBENCH_TRIAL_TIMEOUT_MS !== undefined ? { trialTimeoutMs: e.CEILINGBENCH_TRIAL_TIMEOUT_MS } : {}),
    ...(e.CEILINGBENCH_RETRY_MAX_MS !== undefined ? { retryMaxMs: e.CEILINGBENCH_RETRY_MAX_MS } : {}),
  };
}
