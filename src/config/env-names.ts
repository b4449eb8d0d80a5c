/**
 * Every CEILINGBENCH_* environment variable ceilingbench reads, wherever it is read; any other one set is a typo
 * or another version's, and gets a warning (src/config/load.ts warnUnknownEnv). A new variable is added here:
 * test/config/env-names.test.ts checks the list against every CEILINGBENCH_ name in src/.
 */
export const ENV_NAMES = [
  // the run's configuration (src/config: load.ts, resolve.ts, design.ts)
  'CEILINGBENCH_CONFIG',
  'CEILINGBENCH_SUBJECT',
  'CEILINGBENCH_SUBJECTS',
  'CEILINGBENCH_SEED',
  'CEILINGBENCH_TRIALS',
  'CEILINGBENCH_CONCURRENCY',
  'CEILINGBENCH_OUT',
  'CEILINGBENCH_HTML',
  'CEILINGBENCH_MISSING',
  'CEILINGBENCH_READING',
  'CEILINGBENCH_EXAMPLES',
  'CEILINGBENCH_GATES',
  'CEILINGBENCH_MAX_COST',
  'CEILINGBENCH_MAX_TOKENS',
  'CEILINGBENCH_MAX_CALLS',
  'CEILINGBENCH_DESIGN',
  'CEILINGBENCH_TARGET_WIDTH',
  'CEILINGBENCH_ADAPTIVE_DEPTHS',
  'CEILINGBENCH_ADAPTIVE_OBJECTIVE',
  'CEILINGBENCH_SEQUENTIAL_BATCH',
  'CEILINGBENCH_SEQUENTIAL_MAX',
  'CEILINGBENCH_REASONING_TAGS',
  'CEILINGBENCH_BATCH',
  // the response cache (src/subjects/create.ts, src/config/resolve.ts)
  'CEILINGBENCH_CACHE_DIR',
  'CEILINGBENCH_CACHE_MODE',
  // the openai subject's provider and limiter options (src/subjects/openai/env-options.ts)
  'CEILINGBENCH_RPM',
  'CEILINGBENCH_TPM',
  'CEILINGBENCH_SYSTEM_ROLE',
  'CEILINGBENCH_MAX_TOKENS_PARAM',
  'CEILINGBENCH_TEMPERATURE',
  'CEILINGBENCH_REASONING_EFFORT',
  'CEILINGBENCH_PROVIDER_SEED',
  'CEILINGBENCH_PARAMS',
  'CEILINGBENCH_HEADERS',
  'CEILINGBENCH_STREAM',
  'CEILINGBENCH_REQUEST_TIMEOUT_MS',
  'CEILINGBENCH_TRIAL_TIMEOUT_MS',
  'CEILINGBENCH_RETRY_MAX_MS',
  // the report's git commit (reporters/reporter.ts)
  'CEILINGBENCH_GIT_SHA',
] as const;

/** Read by this repository's own tests and CI, not by the package: set there, they are no typo either. */
export const DEVELOPMENT_ENV_NAMES = ['CEILINGBENCH_SCREENSHOT_DIR'] as const;

/** The prefix that makes a variable ceilingbench's. */
export const ENV_PREFIX = 'CEILINGBENCH_';
