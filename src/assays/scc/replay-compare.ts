import type { SccLogModel } from '../../subjects/replay/scc-log.js';
import type { SccSummaryModel } from './replay-summary.js';
import type { SccResult } from './schema.js';

const pathOf = (r: SccResult) => r.tiers.map((t) => `${t.phase} ${t.center} ${t.passed ? 'pass' : 'fail'}`);

/** Compares the full-tier run with the log trial by trial, with the published tiers, and with our run (its schedule). */
export function compareWithLog(
  result: SccResult,
  ours: SccResult,
  log: SccLogModel,
  published: SccSummaryModel,
): string[] {
  const found: string[] = [];
  if (result.skipped !== published.skipped)
    found.push(
      `our preflight ${result.skipped ? 'failed' : 'passed'}, published ${published.skipped ? 'skipped' : 'not skipped'}`,
    );
  const fullPath = pathOf(result);
  if (fullPath.join() !== pathOf(ours).join())
    found.push(`our schedule (early decision, launch order, preflight) changed the path: ${pathOf(ours).join(', ')}`);
  if (published.evaluations) {
    const logged = published.evaluations.map((e) => `${e.phase} ${e.center_length} ${e.passed ? 'pass' : 'fail'}`);
    if (logged.join() !== fullPath.join()) found.push(`path ${fullPath.join(', ')}; published ${logged.join(', ')}`);
  }
  const bar = published.cc_error_bar;
  if (bar && (bar.lower !== result.errorBar.lower || bar.upper !== result.errorBar.upper)) {
    found.push(`error bar ${JSON.stringify(result.errorBar)}, published ${JSON.stringify(bar)}`);
  }
  const logged = log.trials.filter((t) => t.evaluation_index >= 0);
  const ran = result.tiers.flatMap((tier) => tier.trials.map((trial) => ({ tier, trial })));
  if (ran.length !== logged.length) found.push(`ran ${ran.length} tier trials, the log has ${logged.length}`);
  const byKey = new Map(logged.map((t) => [`${t.evaluation_index}:${t.trial_index}`, t]));
  for (const { tier, trial } of ran) {
    const record = byKey.get(`${tier.evaluationIndex}:${trial.trialIndex}`);
    if (!record) continue;
    if (record.phase !== tier.phase)
      found.push(`evaluation ${tier.evaluationIndex}: phase ${tier.phase}, log ${record.phase}`);
    if (record.requested_max_output_tokens !== trial.requestedMaxOutputTokens) {
      found.push(
        `evaluation ${tier.evaluationIndex} trial ${trial.trialIndex}: requested ${trial.requestedMaxOutputTokens} tokens, log ${record.requested_max_output_tokens}`,
      );
    }
  }
  return found.slice(0, 20);
}
