/**
 * Leaderboards (issue 20): per project, the subjects ranked by the project's headline number with their CIs, which
 * ranks the data can tell apart, and the per-cell numbers side by side. Pure: records in, a leaderboard out.
 *
 * Rules:
 * - Boards: one per headline record — a CCB sweep (project, task, variant, profile, missing rule) ranked by p_d; a
 *   puzzle (project, task) ranked by λ* then pooled accuracy; an SCC task (project, task) ranked by CC. A record
 *   whose status is 'insufficient' (an SCC record that was skipped) is listed last, unranked, and never tested.
 * - Pairing: two subjects are paired on a sweep when they ran the same levels and every level holds the same
 *   trials by (instance seed, trial index) — checked on the trials, never inferred from a seed. Otherwise the
 *   comparison is unpaired and says why (`pairing.reason`). Missing data under the record's rule (api, budget;
 *   format and truncation under 'paper': src/tasks/outcome.ts countedSuccess) drops a pair; never a failure.
 * - Tests: Δp_d by paired bootstrap (instance pairs resampled within each depth, jointly, both p_d refitted) or,
 *   unpaired, the parametric bootstrap of src/compare/retention-difference.ts; two-sided bootstrap p with the
 *   Monte Carlo +1 (p ≥ 2/(B + 1)). Puzzles: exact McNemar on all paired trials of the puzzle's levels pooled
 *   (Fisher exact on the pooled counts when unpaired) — one test per pair, on accuracy, not λ*. Cells: McNemar
 *   or Fisher per cell. SCC: the ladder's bounds, no p-value.
 * - Holm: over every headline test of a project (all subject pairs of all its boards); the cell tests of a project
 *   are a second family. Separable = Holm-adjusted p < α (SCC: bounds disjoint as closed intervals).
 * - Ranks: position by the headline (ties by label); rankRange = [1 + subjects shown better, n − subjects shown
 *   worse] ("rank 1–2"). Adjacent ranks read "A > B (p = …)", "A ≈ B (p = …)", "A < B" (a puzzle ranked above by
 *   λ* but shown less accurate) or "A ? B" (no test). A board notes when B is too small for Holm over its family
 *   to separate anything (K · 2/(B + 1) ≥ α).
 * - Each pair draws from its own seeded stream (a function of the root seed, the sweep and the two labels), and is
 *   computed in label order and oriented afterwards: results do not depend on the other subjects, and exchanging
 *   two subjects negates Δ and its interval and keeps p exactly.
 */

import type { CollapseFit, RetentionFit } from '../schema/fit.js';
import type { Comparison, Leaderboard, NotWorseResult, ProjectLeaderboard } from '../schema/leaderboard.js';
import type { SccHeadline } from '../schema/report.js';
import { quantileLinear } from '../stats/index.js';
import { collapseBoard } from './board-collapse.js';
import type { BoardDraft, BoardSettings } from './board-draft.js';
import { retentionBoard } from './board-retention.js';
import { sccBoard } from './board-scc.js';
import { type RetentionSide, retentionDraws } from './differences.js';
import { type LabelledSubject, type LeaderboardSubject, labelSubjects, levelsOf, sweepKey } from './input.js';
import { pairCounts } from './pairing.js';
import { adjustFamily } from './rank.js';

export { bootstrapP, compareAccuracy, compareRetention, pairedRetentionDraws } from './differences.js';
export type { LabelledSubject, LeaderboardSubject } from './input.js';
export { type PairTable, pairSweeps } from './pairing.js';
export { formatP, orderByHeadline, rankStandings } from './rank.js';

export interface LeaderboardOptions {
  /** Family-wise significance level (default 0.05). */
  alpha?: number;
  /** Bootstrap resamples per retention pair (default 2000). */
  resamples?: number;
  /** Root seed of the bootstrap streams (default 0). */
  seed?: number;
}

function settingsOf(options: LeaderboardOptions): BoardSettings {
  const alpha = options.alpha ?? 0.05;
  const resamples = options.resamples ?? 2000;
  const seed = options.seed ?? 0;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha=${alpha} must lie strictly between 0 and 1`);
  if (!Number.isInteger(resamples) || resamples < 1) throw new RangeError(`resamples=${resamples} must be ≥ 1`);
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seed=${seed} must be a safe integer`);
  return { alpha, resamples, seed };
}

const retentionKey = (f: RetentionFit) => ['retention', f.project, f.task, f.variant, f.profile, f.missing].join('|');
const collapseKey = (f: CollapseFit) => ['collapse', f.project, f.task].join('|');
const sccKey = (r: SccHeadline) => ['scc', r.project, r.task].join('|');

interface BoardPlan {
  project: string;
  build(settings: BoardSettings): BoardDraft;
}

/** Groups each subject's records by board, refusing a subject that holds two records of one board. */
function plan(subjects: readonly LabelledSubject[]): BoardPlan[] {
  const plans = new Map<string, { project: string; members: Array<{ subject: LabelledSubject; record: unknown }> }>();
  const builders = new Map<string, (settings: BoardSettings) => BoardDraft>();
  const add = <R>(
    key: string,
    project: string,
    subject: LabelledSubject,
    record: R,
    build: (first: R, members: Array<{ subject: LabelledSubject; record: R }>, s: BoardSettings) => BoardDraft,
  ) => {
    const entry = plans.get(key) ?? { project, members: [] };
    if (entry.members.some((m) => m.subject === subject)) {
      throw new RangeError(`leaderboard: ${subject.label} has two records for ${key.split('|').join(' ')}`);
    }
    entry.members.push({ subject, record });
    plans.set(key, entry);
    if (!builders.has(key)) {
      builders.set(key, (s) => {
        const members = entry.members as Array<{ subject: LabelledSubject; record: R }>;
        return build(members[0].record, members, s);
      });
    }
  };
  for (const subject of subjects) {
    for (const fit of subject.fits) {
      add(retentionKey(fit), fit.project, subject, fit, (first, members, s) =>
        retentionBoard(
          first,
          members.map((m) => ({ subject: m.subject, fit: m.record })),
          s,
        ),
      );
    }
    for (const fit of subject.collapse) {
      add(collapseKey(fit), fit.project, subject, fit, (first, members, s) =>
        collapseBoard(
          first,
          members.map((m) => ({ subject: m.subject, fit: m.record })),
          s,
        ),
      );
    }
    for (const record of subject.scc) {
      add(sccKey(record), record.project, subject, record, (first, members) =>
        sccBoard(
          first,
          members.map((m) => ({ subject: m.subject, record: m.record })),
        ),
      );
    }
  }
  return [...plans.entries()].map(([key, { project }]) => ({
    project,
    build: builders.get(key) as BoardPlan['build'],
  }));
}

/**
 * A bootstrap p is never below 2/(B + 1), so Holm over K tests never goes below K · 2/(B + 1): when that reaches α
 * no Δp_d can be separable, whatever the data, and the board must say so rather than read as "all ≈".
 */
function bootstrapFloorNotes(headline: readonly Comparison[], settings: BoardSettings): string[] {
  const family = headline.filter((c) => c.p !== null).length;
  const bootstrapped = headline.some((c) => c.p !== null && c.method.endsWith('bootstrap'));
  const floor = (family * 2) / (settings.resamples + 1);
  if (!bootstrapped || floor < settings.alpha) return [];
  const needed = Math.ceil((2 * family) / settings.alpha);
  return [
    `With ${family} tests in the Holm family and B = ${settings.resamples} resamples the smallest adjusted bootstrap p is ${Number(Math.min(1, floor).toPrecision(2))} ≥ α: no Δp_d can be separable at this B; use at least ${needed} resamples.`,
  ];
}

/**
 * The leaderboard of one or more subjects' records (one run with several subjects, or several runs merged):
 * projects in order of first appearance, boards within a project likewise. Deterministic: the same records and
 * options give the same leaderboard, byte for byte.
 */
export function buildLeaderboard(inputs: readonly LeaderboardSubject[], options: LeaderboardOptions = {}): Leaderboard {
  const settings = settingsOf(options);
  const subjects = labelSubjects(inputs);
  const byProject = new Map<string, BoardPlan[]>();
  for (const p of plan(subjects)) byProject.set(p.project, [...(byProject.get(p.project) ?? []), p]);
  const projects: ProjectLeaderboard[] = [...byProject.entries()].map(([project, plans]) => {
    const drafts = plans.map((p) => p.build(settings));
    adjustFamily(
      drafts.flatMap((d) => d.headline),
      settings.alpha,
    );
    adjustFamily(
      drafts.flatMap((d) => d.cellTests),
      settings.alpha,
    );
    const notes = bootstrapFloorNotes(
      drafts.flatMap((d) => d.headline),
      settings,
    );
    for (const d of drafts) d.finish(d.board.kind === 'retention' ? notes : []);
    return { project, boards: drafts.map((d) => d.board) };
  });
  return {
    alpha: settings.alpha,
    resamples: settings.resamples,
    seed: settings.seed,
    subjects: subjects.map((s) => ({ subject: s.label, spec: s.subject, seed: s.seed })),
    projects,
  };
}

/** A difference to four decimals with a true minus sign. */
const signed = (x: number): string => (x < 0 ? `−${(-x).toFixed(4)}` : x.toFixed(4));

export interface NotWorseOptions {
  /** The CCB project (record.project) whose p_d is compared. */
  project: string;
  /** Narrow to one sweep when the project holds several (task, variant). */
  task?: string;
  variant?: string;
  resamples?: number;
  seed?: number;
}

function retentionSide(subject: LabelledSubject, fit: RetentionFit): RetentionSide {
  const cells = subject.cells.filter(
    (c) => c.project === fit.project && c.task === fit.task && c.variant === fit.variant && c.profile === fit.profile,
  );
  return {
    label: subject.label,
    seed: subject.seed,
    fit,
    levels: cells.length > 0 ? levelsOf(cells, sweepKey(cells[0])) : [],
  };
}

/**
 * Non-inferiority of `candidate` against `baseline` on a CCB project, for a gate. With Δ = p_d(candidate) −
 * p_d(baseline) and U the one-sided (1 − α) upper confidence bound of Δ — the (1 − α) percentile (numpy's linear
 * rule) of the B bootstrap differences, paired when the trials pair (instance pairs resampled within each depth),
 * else the parametric bootstrap of each fit — the verdict is:
 * - 'fail' iff U < −margin: the data show, one-sided at level α, that the candidate is worse by more than margin;
 * - 'insufficient' when there is nothing to test: a fit absent, ambiguous or of status 'insufficient', or no
 *   instance pair both subjects count. It never passes;
 * - 'pass' otherwise (the burden of proof is on "worse": a wide interval that reaches above −margin passes, and
 *   `upper` says how far the data reach).
 * The bootstrap stream is the leaderboard's for the same pair and seed, so the gate and the board agree.
 */
export function notWorseThan(
  candidate: LeaderboardSubject,
  baseline: LeaderboardSubject,
  margin: number,
  alpha = 0.05,
  options: NotWorseOptions,
): NotWorseResult {
  if (!(margin >= 0) || !Number.isFinite(margin)) throw new RangeError(`margin=${margin} must be a finite number ≥ 0`);
  const settings = settingsOf({ alpha, resamples: options.resamples, seed: options.seed });
  const [cand, base] = labelSubjects([candidate, baseline]);
  const result = (fields: Partial<NotWorseResult> & Pick<NotWorseResult, 'verdict' | 'message'>): NotWorseResult => ({
    project: options.project,
    task: null,
    candidate: cand.label,
    baseline: base.label,
    margin,
    alpha,
    method: null,
    pairing: null,
    difference: null,
    upper: null,
    ...fields,
  });
  const fitsOf = (s: LabelledSubject) =>
    s.fits.filter(
      (f) =>
        f.project === options.project &&
        (options.task === undefined || f.task === options.task) &&
        (options.variant === undefined || f.variant === options.variant),
    );
  const candFits = fitsOf(cand);
  if (candFits.length !== 1) {
    const which =
      candFits.length === 0
        ? 'has no retention fit'
        : `has ${candFits.length} retention fits (${candFits.map((f) => `${f.task} ${f.variant}`).join(', ')}); name the task and variant`;
    return result({ verdict: 'insufficient', message: `${cand.label} ${which} in project '${options.project}'` });
  }
  const cf = candFits[0];
  const bf = fitsOf(base).find((f) => f.task === cf.task && f.variant === cf.variant && f.profile === cf.profile);
  if (!bf) {
    return result({
      verdict: 'insufficient',
      task: cf.task,
      message: `${base.label} has no retention fit for ${cf.task} (${cf.variant}, ${cf.profile}) in project '${options.project}'`,
    });
  }
  const sides = [retentionSide(cand, cf), retentionSide(base, bf)];
  const candidateFirst = cand.label < base.label;
  const [first, second] = candidateFirst ? sides : [sides[1], sides[0]];
  const draws = retentionDraws(first, second, cf.missing, settings);
  const pairing: NotWorseResult['pairing'] = draws.pairing.paired
    ? { paired: true, ...pairCounts(draws.pairing.tables) }
    : { paired: false, reason: draws.pairing.reason };
  if ('insufficient' in draws) {
    return result({
      verdict: 'insufficient',
      task: cf.task,
      pairing,
      message: `not decided: ${draws.insufficient}`,
    });
  }
  const sign = candidateFirst ? 1 : -1;
  const difference = sign * draws.difference;
  const upper = quantileLinear(
    draws.draws.map((d) => sign * d),
    1 - alpha,
  );
  const fail = upper < -margin;
  const level = Number((100 * (1 - alpha)).toPrecision(6));
  const how = pairing.paired ? draws.method : `${draws.method}, unpaired: ${pairing.reason}`;
  return result({
    verdict: fail ? 'fail' : 'pass',
    task: cf.task,
    method: draws.method,
    pairing,
    difference,
    upper,
    message: fail
      ? `${cand.label} is worse than ${base.label} on ${cf.task}: Δp_d = ${signed(difference)}, one-sided ${level}% upper bound ${signed(upper)} < −${margin} (${how})`
      : `${cand.label} is not shown worse than ${base.label} by more than ${margin} on ${cf.task}: Δp_d = ${signed(difference)}, one-sided ${level}% upper bound ${signed(upper)} ≥ −${margin} (${how})`,
  });
}
