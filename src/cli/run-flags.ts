import { UsageError } from './errors.js';

/**
 * The flags `run` and `plan` share, read once: each becomes the CEILINGBENCH_* variable the configuration reads,
 * so a flag means what its environment variable means and wins over the shell's.
 */
export interface RunEnvFlags {
  /** Repeated `--subject` flags give several subjects (cac: an array). */
  subject?: string | string[];
  seed?: string | number;
  trials?: string | number;
  design?: string;
  targetWidth?: string | number;
  maxCost?: string | number;
  maxTokens?: string | number;
  maxCalls?: string | number;
  /** `--batch`: the openai trials through the provider's batch API (run), priced at the batch rate (plan). */
  batch?: boolean;
}

/**
 * `--subject`, once or repeated, as the environment the configuration reads: one subject as
 * CEILINGBENCH_SUBJECT (as before), several as CEILINGBENCH_SUBJECTS in its JSON form (a spec may hold a comma).
 * The other variable is cleared, so the flags win over the shell's environment.
 */
export function subjectEnv(value: string | string[] | undefined): Record<string, string | undefined> {
  if (value === undefined) return {};
  const specs = [value].flat().map((s) => String(s).trim());
  if (specs.some((s) => s === ''))
    throw new UsageError('--subject: an empty subject; give a spec, e.g. --subject sim:default');
  if (specs.length === 1) return { CEILINGBENCH_SUBJECT: specs[0], CEILINGBENCH_SUBJECTS: '' };
  return { CEILINGBENCH_SUBJECT: '', CEILINGBENCH_SUBJECTS: JSON.stringify(specs) };
}

function integerFlag(name: string, value: string | number | undefined, min: number): string | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name}: '${value}' is not an integer ≥ ${min}`);
  return String(n);
}

function usdFlag(name: string, value: string | number | undefined): string | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--${name}: '${value}' is not a positive number (USD)`);
  return String(n);
}

/** The shared flags as CEILINGBENCH_* overrides (undefined: not given); a bad value is a usage error naming it. */
export function runFlagsEnv(flags: RunEnvFlags): Record<string, string | undefined> {
  if (flags.design !== undefined && !['grid', 'adaptive', 'sequential'].includes(flags.design)) {
    throw new UsageError(`--design: '${flags.design}' is not a design; use grid, adaptive or sequential`);
  }
  return {
    ...subjectEnv(flags.subject),
    CEILINGBENCH_SEED: integerFlag('seed', flags.seed, 0),
    CEILINGBENCH_TRIALS: integerFlag('trials', flags.trials, 1),
    CEILINGBENCH_DESIGN: flags.design,
    CEILINGBENCH_TARGET_WIDTH: flags.targetWidth === undefined ? undefined : String(flags.targetWidth),
    CEILINGBENCH_MAX_COST: usdFlag('max-cost', flags.maxCost),
    CEILINGBENCH_MAX_TOKENS: integerFlag('max-tokens', flags.maxTokens, 1),
    CEILINGBENCH_MAX_CALLS: integerFlag('max-calls', flags.maxCalls, 1),
    CEILINGBENCH_BATCH: flags.batch ? 'true' : undefined,
  };
}
