import { PyRandom } from '../../rng/index.js';
import { NOT_SENT_INTERRUPTED } from '../../spend/ledger.js';
import type { Subject } from '../../subjects/subject.js';
import { LadderSearch } from './ladder.js';
import { LadderRecord } from './ladder-record.js';
import { LadderTrials } from './ladder-trials.js';
import { askPreflight } from './preflight.js';
import { resolveRunSettings, type SccAssayOptions } from './run-settings.js';
import type { SccResult } from './schema.js';
import { evaluateTier } from './tier.js';
import { shouldPromote } from './trial.js';

export type { SccTrialEvent } from './ladder-trials.js';
export type { SccAssayOptions } from './run-settings.js';

/**
 * Runs the SCC assay end to end on a ladder plugin: the search (./ladder.ts) asks for tiers, each tier is evaluated
 * under the run's schedule (./tier.ts), the preflight at 8 runs before the first tier or only after it fails
 * (`preflight`), and the record (./ladder-record.ts) writes the result with its analyses. The subject is the only
 * I/O. When the run's spend ledger refuses a call, the ladder stops once the trials in flight have landed and the
 * result says so (`stopped`; ./stopped.ts).
 */
export async function runSccAssay(
  subject: Subject,
  options: SccAssayOptions & {
    /**
     * Called once, synchronously, when `signal` aborts while a tier runs (a cancelled run): the ladder as it stands —
     * the tiers completed and the running one stopped, with the trials it had answered; no CC measured — so that the
     * caller can record it before its test ends (as runCell's `onCut`). The ladder then rejects with the abort.
     */
    onCut?: (stopped: SccResult) => void;
  },
): Promise<SccResult> {
  const settings = resolveRunSettings(options);
  const { config } = settings;
  const trials = new LadderTrials({
    task: settings.plugin,
    variant: settings.variant,
    subject,
    seed: options.seed,
    retryMaxOutputTokens: config.retryMaxOutputTokens,
    onTrial: options.onTrial,
  });
  const record = new LadderRecord(settings, options.seed, subject, trials);

  if (settings.preflightPolicy === 'first') {
    const pre = await askPreflight(trials, config, options.signal);
    if (pre.kind === 'not-sent') return record.stoppedAtPreflight(pre.error);
    record.preflight = pre.record;
    if (pre.kind === 'failed') return record.skipped();
    if (shouldPromote(pre.record, record.budget)) record.budget = pre.record.finalMaxOutputTokens;
  }

  const rng = new PyRandom(options.seed);
  const search = new LadderSearch(config);
  // a cut while a tier runs: the ladder as it stands, that tier stopped (the run was interrupted)
  let running: (() => SccResult) | undefined;
  const cut = () => {
    const stopped = running?.();
    if (stopped) options.onCut?.(stopped);
  };
  options.signal?.addEventListener('abort', cut, { once: true });
  try {
    for (let step = search.next(); step; step = search.next()) {
      const evaluationIndex = record.tiers.length;
      const tier = await evaluateTier(trials.at(step.phase, evaluationIndex, step.center), {
        ...settings,
        step,
        rng,
        budget: record.budget,
        signal: options.signal,
        asItStands: (take) => {
          running = () => record.stoppedInTier(step, evaluationIndex, take(NOT_SENT_INTERRUPTED));
        },
      });
      running = undefined;
      record.budget = Math.max(record.budget, tier.budget);
      if (tier.kind === 'stopped') return record.stoppedInTier(step, evaluationIndex, tier);
      search.record(tier.passed);
      record.addTier(step, evaluationIndex, tier);
    }
  } finally {
    options.signal?.removeEventListener('abort', cut);
  }

  // Deferred preflight: once the first tier has failed the ladder has ended with CC 0, and the preflight only
  // chooses between the two records the authors would write for it (skipped, or failed at the first tier).
  if (record.preflight === null && !record.tiers[0].passed) {
    const pre = await askPreflight(trials, config, options.signal);
    if (pre.kind === 'not-sent') return record.stoppedAtPreflight(pre.error);
    record.preflight = pre.record;
    if (pre.kind === 'failed') return record.skipped();
  }
  if (record.preflight === null) record.callsSaved++;
  return record.measured(search.result());
}
