import type { RunConfig } from '../config/resolve.js';
import { UsageError } from '../errors.js';
import type { Price } from '../schema/spend.js';
import { batchPrice, priceFor } from '../spend/price.js';
import { countChatTokens, countTokens, type EncodingChoice, encodingFor } from '../spend/tokenizer.js';
import { CACHE_MODES, type CacheMode, ResponseCache } from '../subjects/cache/store.js';
import { createCacheStep } from '../subjects/openai/cache-step.js';
import { DEFAULT_OPENAI_BASE_URL, type Env, sanitizeEndpoint } from '../subjects/openai/endpoint.js';
import { openAiOptionsFromEnv } from '../subjects/openai/env-options.js';
import { buildMessages, buildParams, type SystemRole } from '../subjects/openai/request-body.js';
import { parseSubjectSpec, type SubjectSpec } from '../subjects/spec.js';
import type { TrialRequest } from '../subjects/subject.js';
import type { Prompt } from '../tasks/task.js';

/**
 * The subject as the plan sees it: how its prompts are tokenized, what it costs, and which trials its response cache
 * already answers. Nothing here opens a connection or builds a subject (an openai subject would want a key): the
 * cache key is computed from the same parts the openai subject computes it from, and looked up on disk.
 */
export interface PlanSubject {
  spec: string;
  kind: SubjectSpec['kind'];
  model: string | null;
  /** The name the SCC agent assay salts its ladders with (the subject's model, else its spec). */
  ladderModel: string;
  tokenizer: EncodingChoice;
  price: Price | null;
  /** Batch mode (`--batch`, config `batch`) for an openai subject: `price` is the batch price; this, the list price. */
  batch: { listPrice: Price | null } | null;
  cache: { dir: string | null; mode: string };
  /**
   * The sampling temperature the subject is asked at, where the plan knows it: an openai subject's configured one
   * (0 unless CEILINGBENCH_TEMPERATURE says otherwise); null when unknown or not sent (the provider's default).
   */
  temperature: number | null;
  promptTokens(prompt: Prompt): number;
  textTokens(text: string): number;
  /** Whether the response cache holds the answer to this request (false for subjects without a cache). */
  isCached(request: TrialRequest): Promise<boolean>;
}

/** Counts once per distinct text: a fixed-instance puzzle asks the same prompt for every trial of a cell. */
function memo<T>(key: (value: T) => string, count: (value: T) => number): (value: T) => number {
  const seen = new Map<string, number>();
  return (value) => {
    const k = key(value);
    let n = seen.get(k);
    if (n === undefined) {
      n = count(value);
      seen.set(k, n);
    }
    return n;
  };
}

const promptKey = (prompt: Prompt): string => `${prompt.system}\u0000${prompt.user}`;

const batched = (price: Price | null, batch: boolean): Price | null => (price && batch ? batchPrice(price) : price);

/** The plan's view of one of the run's subjects (default its first, `config.subject`). */
export function planSubject(config: RunConfig, env: Env, subjectSpec: string = config.subject): PlanSubject {
  const spec = subjectSpec.trim();
  const parsed = parseSubjectSpec(spec);
  const model = parsed.kind === 'openai' || parsed.kind === 'replay' ? (parsed.model ?? null) : null;
  const listPrice = priceFor(config.prices, { spec, model });
  const batch = config.batch !== false && parsed.kind === 'openai';
  const base = {
    spec,
    kind: parsed.kind,
    model,
    ladderModel: model ?? spec,
    tokenizer: encodingFor(model),
    // batch mode prices an openai subject's requests at the batch rate (the table's `batch`, else half)
    price: batched(listPrice, batch),
    batch: batch ? { listPrice } : null,
    textTokens: memo<string>(
      (text) => text,
      (text) => countTokens(text, model),
    ),
  };
  if (parsed.kind !== 'openai') {
    return {
      ...base,
      temperature: null,
      cache: { dir: null, mode: 'none' },
      promptTokens: memo(promptKey, (prompt) => countChatTokens(buildMessages(prompt), model)),
      isCached: async () => false,
    };
  }
  // what createSubject builds for `openai:<model>` in a run (src/subjects/index.ts, src/vitest/context.ts)
  const options = { ...openAiOptionsFromEnv(env), model: parsed.model };
  const endpoint = sanitizeEndpoint(env.OPENAI_BASE_URL || DEFAULT_OPENAI_BASE_URL);
  const systemRole: SystemRole | undefined = options.systemRole;
  const mode = (env.CEILINGBENCH_CACHE_MODE || 'read-write') as CacheMode;
  if (!CACHE_MODES.includes(mode)) {
    throw new UsageError(`CEILINGBENCH_CACHE_MODE '${mode}' is not valid; use one of: ${CACHE_MODES.join(', ')}`);
  }
  // a corrupt entry is a miss, as in a run (which reports it when it meets it)
  const cache = mode === 'off' ? undefined : new ResponseCache(config.cacheDir, mode, () => {});
  const step = createCacheStep({ endpoint, model: parsed.model });
  return {
    ...base,
    // what buildParams sends: 0 by default, none when the user set null (the provider's default)
    temperature: options.temperature === undefined ? 0 : options.temperature,
    cache: { dir: cache ? config.cacheDir : null, mode },
    promptTokens: memo(promptKey, (prompt) => countChatTokens(buildMessages(prompt, systemRole), model)),
    async isCached(request) {
      if (!cache?.readable) return false;
      const key = step.keyOf(request, {
        messages: buildMessages(request.prompt, systemRole),
        params: buildParams(options, endpoint, request.maxOutputTokens),
      });
      return (await cache.get(key)) !== undefined;
    },
  };
}
