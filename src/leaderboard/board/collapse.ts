import type { CellResult } from '../../schema/cell.js';
import type { CollapseFit } from '../../schema/fit.js';
import type { CollapseEntry } from '../../schema/leaderboard.js';
import { clopperPearson } from '../../stats/index.js';
import type { MissingRule } from '../../tasks/outcome.js';
import { type AccuracySide, compareAccuracy } from '../differences.js';
import { type LabelledSubject, levelsOf, sweepKey } from '../input.js';
import type { Rankable } from '../rank.js';
import { type BoardDraft, type BoardSettings, standingOf } from './draft.js';
import { testedBoard } from './tested.js';

type Side = AccuracySide & Rankable & { subject: LabelledSubject; cells: CellResult[]; fit: CollapseFit };

/** The kStar mean over cells, weighted by each cell's k* population. */
function kStarMean(cells: readonly CellResult[]): number | null {
  let weight = 0;
  let sum = 0;
  for (const c of cells) {
    if (c.kStar.mean === null || c.kStar.n === 0) continue;
    weight += c.kStar.n;
    sum += c.kStar.mean * c.kStar.n;
  }
  return weight > 0 ? sum / weight : null;
}

/** The subject's cells of a puzzle sweep: the sweep whose levels are the fit's (the first one otherwise). */
function collapseCells(subject: LabelledSubject, fit: CollapseFit): CellResult[] {
  const cells = subject.cells.filter((c) => c.project === fit.project && c.task === fit.task);
  const keys = [...new Set(cells.map(sweepKey))];
  const fitLevels = fit.levels.map((l) => l.level).join(',');
  const key =
    keys.find(
      (k) =>
        cells
          .filter((c) => sweepKey(c) === k)
          .map((c) => c.level)
          .sort((a, b) => a - b)
          .join(',') === fitLevels,
    ) ?? keys[0];
  return cells.filter((c) => sweepKey(c) === key);
}

/** One puzzle's board: subjects by λ* then pooled accuracy; separability by McNemar on all paired trials. */
export function collapseBoard(
  fit: CollapseFit,
  members: ReadonlyArray<{ subject: LabelledSubject; fit: CollapseFit }>,
  settings: BoardSettings,
): BoardDraft {
  const rule: MissingRule = 'paper';
  const sides = members.map(({ subject, fit: own }): Side => {
    const cells = collapseCells(subject, own);
    const correct = own.levels.reduce((s, l) => s + l.correct, 0);
    const n = own.levels.reduce((s, l) => s + l.n, 0);
    const accuracy = n > 0 ? correct / n : null;
    const levelIndex = own.collapseThreshold.levelIndex;
    return {
      label: subject.label,
      seed: subject.seed,
      levels: cells.length > 0 ? levelsOf(cells, sweepKey(cells[0])) : [],
      tally: { successes: correct, counted: n },
      subject,
      cells,
      fit: own,
      ok: own.status === 'ok' && n > 0,
      key: [levelIndex, accuracy],
    };
  });
  return testedBoard(
    {
      project: fit.project,
      sides,
      rule,
      compare: (a, b) => compareAccuracy(a, b, rule),
      entry: (s): CollapseEntry => {
        const { successes, counted } = s.tally ?? { successes: 0, counted: 0 };
        const successesInCells = s.cells.reduce((acc, c) => acc + c.successes, 0);
        const tfbc = s.cells.reduce((acc, c) => acc + c.tfbc, 0);
        return {
          ...standingOf(
            s.subject,
            s.ok,
            s.ok ? undefined : counted === 0 ? 'no counted trial' : 'too many missing trials in a level',
          ),
          levelIndex: s.fit.collapseThreshold.levelIndex,
          knob: s.fit.collapseThreshold.knob,
          levelIndexCi95: s.fit.collapseThreshold.ci95,
          accuracy: counted > 0 ? successes / counted : null,
          accuracyCi95: counted > 0 ? clopperPearson(successes, counted) : null,
          correct: successes,
          n: counted,
          tfbcRate: successesInCells > 0 ? tfbc / successesInCells : null,
          kStarMean: kStarMean(s.cells),
        };
      },
      board: (parts) => ({ kind: 'collapse', project: fit.project, task: fit.task, ...parts }),
      words: { rankedBy: 'λ*', tested: 'accuracy' },
      notes: [
        'Ranked by λ* (level index of the steepest accuracy drop; higher = later collapse), then by accuracy pooled over the levels; a flat curve (λ* undefined) ranks below every λ*.',
        "Separability is tested on accuracy, not on λ*: exact McNemar on the discordant pairs of all paired trials of the puzzle's levels pooled (Fisher exact on the pooled counts when unpaired). '<' marks a pair ranked one way by λ* and separated the other way by accuracy.",
      ],
    },
    settings,
  );
}
