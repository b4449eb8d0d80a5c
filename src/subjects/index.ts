/**
 * Subjects: who answers a prompt. `createSubject(spec)` / `subjectFromEnv()` build one from the grammar
 * `sim:<profile>[?k=v&…]` | `oracle` | `openai:<model>` | `replay:<path>[#model]` (src/subjects/spec.ts).
 *
 * Environment: CEILINGBENCH_SUBJECT (default sim:default); OPENAI_BASE_URL, OPENAI_API_KEY;
 * CEILINGBENCH_CACHE_DIR (default .ceilingbench/cache), CEILINGBENCH_CACHE_MODE (read-write | read-only |
 * off | refresh); provider, streaming, timeout and limiter options of src/subjects/openai/env-options.ts.
 *
 * The response cache holds one JSON entry per trial (`<dir>/<key[0:2]>/<key>.json`, one line each), so
 * concatenating its files (`find <dir> -name '*.json' -exec cat {} + > run.jsonl`) gives a JSONL that
 * `replay:run.jsonl[#model]` replays; `replay:<dir>[#model]` replays the directory itself.
 */
export { type CacheEntry, cacheEntrySchema } from './cache/entry.js';
export { cacheKey, promptSha256 } from './cache/key.js';
export { CACHE_MODES, type CacheMode, DEFAULT_CACHE_DIR, ResponseCache } from './cache/store.js';
export {
  type CreateSubjectOptions,
  createSubject,
  DEFAULT_SUBJECT,
  subjectFromEnv,
  subjectOfFunction,
} from './create.js';
export {
  type DefinedSubject,
  defineSubject,
  isDefinedSubject,
  type SubjectAnswer,
  type SubjectAnswerInput,
  type SubjectDefinition,
  type SubjectMessage,
  type SubjectTrial,
} from './function/define.js';
export { createFunctionSubject, type FunctionSubjectOptions } from './function/function-subject.js';
export {
  loadConfigSubject,
  loadModuleSubject,
  type ModuleImporter,
  nativeModuleImport,
} from './function/module-ref.js';
export {
  type AdaptiveBounds,
  AdaptiveConcurrency,
  DEFAULT_ADAPTIVE_BOUNDS,
  type LeaseOutcome,
  type LimiterConfig,
  RateLimiter,
  sharedLimiter,
} from './limiter.js';
export { openAiOptionsFromEnv } from './openai/env-options.js';
export { createOpenAiSubject, type OpenAiSubjectOptions, TRIAL_HEADER } from './openai/openai-subject.js';
export { RequestTimeoutError } from './openai/request.js';
export type { ProviderOptions } from './openai/request-body.js';
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from './openai/retry.js';
export { STREAM_AUTO_ABOVE, type StreamMode } from './openai/stream-mode.js';
export { createOracleSubject } from './oracle.js';
export { createReplaySubject, detectReplayFormat } from './replay/index.js';
export { knobsFor } from './sim/profiles.js';
export { createSimSubject, type TaskResolver } from './sim/sim-subject.js';
export { parseSubjectSpec, type SubjectSpec, SubjectSpecError, VALID_SUBJECT_FORMS } from './spec.js';
export type { BudgetRecord, Subject, SubjectIdentity, TrialRequest, TrialResponse } from './subject.js';
