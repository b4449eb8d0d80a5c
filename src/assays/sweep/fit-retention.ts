import type { CellResult } from '../../schema/cell.js';
import type { RetentionFit } from '../../schema/fit.js';
import { type DepthCount, estimateRetention, summarizeKStar, tfbcRate } from '../../stats/index.js';
import { isMissingKind, type MissingRule, OUTCOME_RECORDS } from '../../tasks/outcome.js';
import { setAsideBrief, setAsideSummary } from './set-aside.js';
import { kStarPopulation } from './summarize-cell.js';

export type { MissingRule };

/**
 * Per-depth (successes, n) where n counts the trials the missing-data rule keeps (src/tasks/outcome.ts) — over the
 * cell's distinct samples when some of its replicates could not differ (`samples`, src/assays/sweep/samples.ts).
 */
export function depthCounts(cells: readonly CellResult[], missing: MissingRule): DepthCount[] {
  return cells.map((cell) => {
    const tally = cell.samples?.outcomes ?? cell.outcomes;
    let counted = 0;
    for (const [kind, count] of Object.entries(tally)) {
      if (!isMissingKind(cell.family, kind, missing)) counted += count;
    }
    const correct = cell.samples ? (tally[OUTCOME_RECORDS[cell.family].success] ?? 0) : cell.successes;
    return { depth: cell.level, correct, n: counted };
  });
}

const rate = (count: number, total: number): number | null => (total > 0 ? count / total : null);

/** Trials the rule leaves out of p_d (api and budget always, Format and Truncation under 'paper'). */
const setAsideTrials = (cells: readonly CellResult[], missing: MissingRule): number =>
  cells.reduce(
    (sum, cell) =>
      sum +
      Object.entries(cell.outcomes).reduce(
        (n, [kind, k]) => n + (isMissingKind(cell.family, kind, missing) ? k : 0),
        0,
      ),
    0,
  );

/** JSON has no Infinity: an unbounded horizon (p_d = 1) is recorded as null. */
const finiteOrNull = (x: number): number | null => (Number.isFinite(x) ? x : null);

function horizonRecord(horizon: Record<string, { value: number; ci95: [number, number] }>): RetentionFit['horizon'] {
  return Object.fromEntries(
    Object.entries(horizon).map(([s, h]) => [
      s,
      { value: finiteOrNull(h.value), ci95: [finiteOrNull(h.ci95[0]), finiteOrNull(h.ci95[1])] },
    ]),
  );
}

/**
 * Why a fit says nothing (undefined when it does): a cell with too many missing trials, or no trial counted
 * toward p_d at all — the estimator would still return its prior-like value (p_d 0.5) on zero counts, and
 * reporting that as `ok` would be a number made of no data.
 */
function insufficiency(
  cells: readonly CellResult[],
  counts: readonly DepthCount[],
  missing: MissingRule,
  total: number,
): string | undefined {
  const counted = counts.reduce((acc, c) => acc + c.n, 0);
  if (counted === 0) {
    const which = missing === 'paper' ? 'Correct, Reasoning or Constraint' : 'anything but API';
    // what the trials were instead: refused, cut off, unreadable, or never answered
    const tally = new Map<string, number>();
    for (const cell of cells)
      for (const [kind, n] of Object.entries(cell.outcomes)) tally.set(kind, (tally.get(kind) ?? 0) + n);
    const refused = cells.reduce((acc, c) => acc + c.trials.filter((t) => t.refusal !== undefined).length, 0);
    const parts = [
      ...(refused > 0 ? [`${refused} refused`] : []),
      ...[...tally]
        .filter(([kind, n]) => n > 0 && isMissingKind(cells[0]?.family ?? 'ccb', kind, missing))
        .sort(([a], [b]) => a.localeCompare(b))
        .map(
          ([kind, n]) =>
            `${n} ${kind === 'truncation' ? 'cut off (truncation)' : kind === 'api' || kind === 'budget' ? `missing (${kind})` : kind}`,
        ),
    ];
    return `no counted trials: 0 of ${total} trials are ${which} (missing rule '${missing}')${parts.length > 0 ? ` — ${parts.join(', ')}` : ''}, so p_d is not estimated`;
  }
  const bad = cells.filter((c) => c.status === 'insufficient');
  if (bad.length > 0) {
    // each bad cell with its share and what it is made of: 80% Format never hides behind the fit's p_d
    // cells with the same share and make-up are said once: `levels 15, 20, 25: 100% (format 3 of 3) each`
    const byShare = new Map<string, number[]>();
    for (const c of bad) byShare.set(setAsideBrief(c), [...(byShare.get(setAsideBrief(c)) ?? []), c.level]);
    const shares = [...byShare]
      .map(([brief, levels]) =>
        levels.length === 1 ? `level ${levels[0]}: ${brief}` : `levels ${levels.join(', ')}: ${brief} each`,
      )
      .join('; ');
    return `${bad.length} of ${cells.length} cell(s) insufficient (too many trials missing or set aside) — ${shares}`;
  }
  return undefined;
}

/** The geometric-decay fit of one CCB sweep, with k*, TFBC and the rates that the missing rule hides. */
export function fitRetentionSweep(
  cells: readonly CellResult[],
  options: { project: string; missing: MissingRule; seed: number },
): RetentionFit {
  const counts = depthCounts(cells, options.missing);
  const estimate = estimateRetention(counts, { seed: options.seed });
  const sum = (kind: string) => cells.reduce((acc, c) => acc + (c.outcomes[kind] ?? 0), 0);
  const total = cells.reduce((acc, c) => acc + c.n, 0);
  const api = sum('api');
  const notSent = sum('budget');
  const answered = total - api - notSent;
  const correct = sum('correct');
  const tfbc = cells.reduce((acc, c) => acc + c.tfbc, 0);
  const first = cells[0];
  const setAside = setAsideSummary(cells);
  const refusals = cells.reduce((acc, c) => acc + c.trials.filter((t) => t.refusal !== undefined).length, 0);
  const reason = insufficiency(cells, counts, options.missing, total);
  return {
    kind: 'retention',
    project: options.project,
    task: first.task,
    profile: first.profile,
    variant: first.variant,
    missing: options.missing,
    status: reason ? 'insufficient' : 'ok',
    ...(reason ? { insufficientReason: reason } : {}),
    counts,
    pd: estimate.pd,
    ci95: estimate.ci95,
    profileCi95: estimate.profileCi95,
    atLowerBound: estimate.atLowerBound,
    horizon: horizonRecord(estimate.horizon),
    firstDepthBelow: estimate.firstDepthBelow,
    logLik: estimate.logLik,
    aic: estimate.aic,
    bic: estimate.bic,
    alternatives: estimate.alternatives as Record<string, unknown>,
    kStar: summarizeKStar(cells.flatMap((c) => kStarPopulation(c.trials))),
    correct,
    tfbc,
    tfbcRate: tfbcRate(tfbc, correct),
    formatRate: rate(sum('format'), answered),
    truncationRate: rate(sum('truncation'), answered),
    apiRate: rate(api, total),
    ...(notSent > 0 ? { budgetRate: rate(notSent, total) } : {}),
    ...(refusals > 0 ? { refusalRate: refusals / answered } : {}),
    ...(setAside ? { setAside } : {}),
    setAsideRate: rate(setAsideTrials(cells, options.missing), total),
    nTrials: total,
  };
}
