import type { CellResult } from '../../schema/cell.js';
import type { RetentionFit } from '../../schema/fit.js';
import type { RetentionEntry } from '../../schema/leaderboard.js';
import { compareRetention, type RetentionSide } from '../differences.js';
import { type LabelledSubject, type LevelTrials, levelsOf, sweepKey } from '../input.js';
import type { Rankable } from '../rank.js';
import { type BoardDraft, type BoardSettings, standingOf } from './draft.js';
import { testedBoard } from './tested.js';

type Side = RetentionSide & Rankable & { subject: LabelledSubject; cells: CellResult[] };

/** One CCB sweep's board: subjects by p_d, Δp_d by paired (or parametric) bootstrap. */
export function retentionBoard(
  fit: RetentionFit,
  members: ReadonlyArray<{ subject: LabelledSubject; fit: RetentionFit }>,
  settings: BoardSettings,
): BoardDraft {
  const rule = fit.missing;
  const sides = members.map(({ subject, fit: own }): Side => {
    const cells = subject.cells.filter(
      (c) => c.project === own.project && c.task === own.task && c.variant === own.variant && c.profile === own.profile,
    );
    const levels: LevelTrials[] = cells.length > 0 ? levelsOf(cells, sweepKey(cells[0])) : [];
    return {
      label: subject.label,
      seed: subject.seed,
      fit: own,
      levels,
      subject,
      cells,
      ok: own.status === 'ok',
      key: [own.pd],
    };
  });
  return testedBoard(
    {
      project: fit.project,
      sides,
      rule,
      compare: (a, b) => compareRetention(a, b, rule, settings),
      entry: (s): RetentionEntry => ({
        ...standingOf(s.subject, s.ok, s.fit.insufficientReason ?? (s.ok ? undefined : 'fit insufficient')),
        pd: s.fit.pd,
        ci95: s.fit.ci95,
        atLowerBound: s.fit.atLowerBound,
        nTrials: s.fit.nTrials,
        tfbcRate: s.fit.tfbcRate,
        kStarMean: s.fit.kStar.mean,
        formatRate: s.fit.formatRate,
        truncationRate: s.fit.truncationRate,
        apiRate: s.fit.apiRate,
        budgetRate: s.fit.budgetRate ?? null,
      }),
      board: (parts) => ({
        kind: 'retention',
        project: fit.project,
        task: fit.task,
        variant: fit.variant,
        profile: fit.profile,
        missing: rule,
        ...parts,
      }),
      words: { rankedBy: 'p_d', tested: 'p_d' },
      notes: [
        `Ranked by p_d (maximum likelihood of P(correct | N) = p_d^N, missing rule '${rule}'); each 95% CI is the subject's own fit.`,
        `Δp_d: paired bootstrap (instance pairs resampled within each depth, jointly for both subjects, both p_d refitted; B = ${settings.resamples}) when both answered the same instances; otherwise a parametric bootstrap of each fit (unpaired). Paired Δ is refitted on the pairs both subjects count.`,
      ],
    },
    settings,
  );
}
