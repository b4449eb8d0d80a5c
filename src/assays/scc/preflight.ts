import type { SccConfig } from './config.js';
import type { LadderTrials } from './ladder-trials.js';
import { type SccTrialRecord, TrialNotSentError } from './trial.js';

/**
 * The one-trial preflight at `preflightLength`, always at the configured budget wherever it runs (the authors ask
 * it before any budget was learned): passed, failed (no integer, or an error: the authors skip the model), or
 * refused by the run's spend ledger.
 */
export type PreflightOutcome =
  | { kind: 'passed' | 'failed'; record: SccTrialRecord }
  | { kind: 'not-sent'; error: TrialNotSentError };

export async function askPreflight(
  trials: LadderTrials,
  config: SccConfig,
  signal: AbortSignal = new AbortController().signal,
): Promise<PreflightOutcome> {
  const runner = trials.at('preflight', -1, config.preflightLength);
  try {
    const outcome = await runner.run(0, config.preflightLength, config.maxOutputTokens, signal);
    if (outcome.kind === 'aborted') throw new Error('SCC assay aborted by the caller during the preflight');
    const { record } = outcome;
    return { kind: record.parsed === null || record.status === 'error' ? 'failed' : 'passed', record };
  } catch (error) {
    if (error instanceof TrialNotSentError) return { kind: 'not-sent', error };
    throw error;
  }
}
