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
 *   unpaired, the parametric bootstrap of src/stats/retention-difference.ts; two-sided bootstrap p with the
 *   Monte Carlo +1 (p ≥ 2/(B + 1)). Puzzles: exact McNemar on all paired trials of the puzzle's levels pooled
 *   (Fisher exact on the pooled counts when unpaired) — one test per pair, on accuracy, not λ*. Cells: McNemar
 *   or Fisher per cell. SCC: the ladder's bounds, no p-value.
 * - Tests: adjacent ranks only, and a project's gated baseline (`baselines`, its notWorseThan subject) against every
 *   subject, so the tests, their bootstrap time and the report grow linearly with the subjects; rank ranges chain
 *   the separable adjacent steps (rank.ts rankStandings).
 * - Holm: over every headline test of a project (the tested pairs of all its boards); the cell tests of a project
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
import type { Comparison, Leaderboard, ProjectLeaderboard } from '../schema/leaderboard.js';
import type { SccHeadline } from '../schema/report.js';
import { collapseBoard } from './board/collapse.js';
import type { BoardDraft, BoardSettings } from './board/draft.js';
import { retentionBoard } from './board/retention.js';
import { sccBoard } from './board/scc.js';
import { type LabelledSubject, type LeaderboardSubject, labelSubjects } from './input.js';
import { adjustFamily } from './rank.js';
import { type LeaderboardOptions, settingsOf } from './settings.js';

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
      add(sccKey(record), record.project, subject, record, (first, members, s) =>
        sccBoard(
          first,
          members.map((m) => ({ subject: m.subject, record: m.record })),
          s,
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

/** The label of each project's gated baseline: its first subject of that spec. */
function baselineLabels(
  subjects: readonly LabelledSubject[],
  baselines: Readonly<Record<string, string>> | undefined,
): (project: string) => string | undefined {
  return (project) => {
    const spec = baselines?.[project];
    return spec === undefined ? undefined : subjects.find((s) => s.subject === spec)?.label;
  };
}

/**
 * The leaderboard of one or more subjects' records (one run with several subjects, or several runs merged):
 * projects in order of first appearance, boards within a project likewise. Deterministic: the same records and
 * options give the same leaderboard, byte for byte.
 */
export function buildLeaderboard(inputs: readonly LeaderboardSubject[], options: LeaderboardOptions = {}): Leaderboard {
  const subjects = labelSubjects(inputs);
  const settings = { ...settingsOf(options), baselineOf: baselineLabels(subjects, options.baselines) };
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
