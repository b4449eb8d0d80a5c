import { z } from 'zod';
import { UsageError } from '../../errors.js';
import type { LimiterConfig } from '../limiter.js';
import type { Env } from './endpoint.js';
import type { ProviderOptions } from './request-body.js';

/**
 * Provider and limiter options from the environment, for runs configured without code:
 *
 * | variable | option |
 * |---|---|
 * | CEILINGBENCH_CONCURRENCY | requests in flight per endpoint (process-wide) |
 * | CEILINGBENCH_RPM / CEILINGBENCH_TPM | requests / tokens per minute per endpoint |
 * | CEILINGBENCH_SYSTEM_ROLE | system \| developer \| merge |
 * | CEILINGBENCH_MAX_TOKENS_PARAM | max_completion_tokens \| max_tokens |
 * | CEILINGBENCH_REASONING_EFFORT | minimal \| low \| medium \| high |
 * | CEILINGBENCH_SEED | integer `seed` sent with every request |
 */
const positive = z.string().trim().min(1).transform(Number).pipe(z.number().positive());
const schema = z.object({
  CEILINGBENCH_CONCURRENCY: positive.pipe(z.number().int()).optional(),
  CEILINGBENCH_RPM: positive.optional(),
  CEILINGBENCH_TPM: positive.optional(),
  CEILINGBENCH_SYSTEM_ROLE: z.enum(['system', 'developer', 'merge']).optional(),
  CEILINGBENCH_MAX_TOKENS_PARAM: z.enum(['max_completion_tokens', 'max_tokens']).optional(),
  CEILINGBENCH_REASONING_EFFORT: z.enum(['minimal', 'low', 'medium', 'high']).optional(),
  CEILINGBENCH_SEED: z.string().trim().min(1).transform(Number).pipe(z.number().int()).optional(),
});

export function openAiOptionsFromEnv(env: Env): ProviderOptions & { limiter?: LimiterConfig } {
  const present = Object.fromEntries(
    Object.keys(schema.shape).flatMap((name) => (env[name] ? [[name, env[name]]] : [])),
  );
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0]);
    throw new UsageError(`${name}='${env[name]}' is not valid (${issue?.message}); fix or unset it`);
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
    ...(e.CEILINGBENCH_REASONING_EFFORT ? { reasoningEffort: e.CEILINGBENCH_REASONING_EFFORT } : {}),
    ...(e.CEILINGBENCH_SEED !== undefined ? { seed: e.CEILINGBENCH_SEED } : {}),
  };
}
