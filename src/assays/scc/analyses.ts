import { auditTable } from '../../tasks/count/audit.js';
import type { Attractor, SccTier, SccTrial, TokensAtCc } from './schema.js';

/**
 * Preferred wrong answers past capacity (paper Fig. 2C/D): over the trials whose target exceeds cc, the
 * parsed values that are wrong, by frequency. Values seen once are not attractors and are left out.
 */
export function findAttractors(tiers: readonly SccTier[], cc: number, limit = 10): Attractor[] {
  const counts = new Map<number, number>();
  let wrong = 0;
  for (const tier of tiers) {
    for (const trial of tier.trials) {
      if (trial.target <= cc || trial.parsed === null || trial.exact) continue;
      wrong++;
      counts.set(trial.parsed, (counts.get(trial.parsed) ?? 0) + 1);
    }
  }
  return [...counts.entries()]
    .filter(([, count]) => count >= 2)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, limit)
    .map(([value, count]) => ({ value, count, share: count / wrong }));
}

const mean = (values: readonly number[]): number | null =>
  values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;

/**
 * Tokens per count at CC (paper Fig. 3A): over the highest-index passed tier centred at cc, the mean output
 * tokens and mean input + output tokens, and both divided by the trial's true count (averaged per trial).
 * Also the authors' CSV quirk (`avg_output_tokens_at_cc` = mean output tokens > 0 over all passed tiers).
 */
export function tokensPerCountAtCc(tiers: readonly SccTier[], cc: number): TokensAtCc {
  const passed = tiers.filter((tier) => tier.passed);
  const atCc = [...passed].reverse().find((tier) => tier.center === cc);
  const withTokens = (atCc?.trials ?? []).filter((t): t is SccTrial & { tokens: number } => t.tokens !== null);
  const withTotal = withTokens.filter((t) => t.inputTokens !== null);
  const csvTokens = passed.flatMap((tier) =>
    tier.trials.flatMap((t) => (t.tokens !== null && t.tokens > 0 ? [t.tokens] : [])),
  );
  return {
    center: atCc ? atCc.center : null,
    trials: atCc ? atCc.trials.length : 0,
    meanOutputTokens: mean(withTokens.map((t) => t.tokens)),
    meanTotalTokens: mean(withTotal.map((t) => t.tokens + (t.inputTokens ?? 0))),
    outputTokensPerCount: mean(withTokens.map((t) => t.tokens / t.target)),
    totalTokensPerCount: mean(withTotal.map((t) => (t.tokens + (t.inputTokens ?? 0)) / t.target)),
    authorsCsvAvgOutputTokens: mean(csvTokens),
  };
}

/** The format-audit table of one model's run (preflight included, as in the paper's 9,797 trials). */
export function formatAuditOf(model: string, trials: readonly SccTrial[]) {
  return auditTable(trials.map((t) => ({ model, category: t.format, parsed: t.parsed !== null })));
}
