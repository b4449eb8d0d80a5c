import type { CellResult } from '../../schema/cell.js';
import type { CellRow, Comparison } from '../../schema/leaderboard.js';
import { clopperPearson } from '../../stats/index.js';
import type { MissingRule } from '../../tasks/outcome.js';
import { compareAccuracy } from '../differences.js';
import { countedTally, levelsOf, sweepKey } from '../input.js';
import { pairsToCompare, unadjusted } from './draft.js';

/**
 * Cells side by side: a row per (sweep, level) any member ran, with the tests of adjacent members in board order
 * (and of the baseline against each), linear in the members.
 */
export function cellRows(
  members: ReadonlyArray<{ label: string; seed: number | null; cells: CellResult[] }>,
  rule: MissingRule,
  baseline?: string,
): { rows: CellRow[]; tests: Comparison[] } {
  const keys: string[] = [];
  const sample = new Map<string, CellResult>();
  for (const m of members) {
    for (const c of m.cells) {
      const key = `${sweepKey(c)}\u0000${c.level}`;
      if (!sample.has(key)) {
        sample.set(key, c);
        keys.push(key);
      }
    }
  }
  keys.sort((x, y) => {
    const a = sample.get(x) as CellResult;
    const b = sample.get(y) as CellResult;
    return sweepKey(a) < sweepKey(b) ? -1 : sweepKey(a) > sweepKey(b) ? 1 : a.level - b.level;
  });
  const tests: Comparison[] = [];
  const rows = keys.map((key): CellRow => {
    const first = sample.get(key) as CellResult;
    const sides = members.flatMap((m) => {
      const levels = levelsOf(m.cells, sweepKey(first)).filter((l) => l.level === first.level);
      return levels.length === 1 ? [{ member: m, level: levels[0] }] : [];
    });
    const subjects = sides.map(({ member, level }) => {
      const { successes, counted } = countedTally(level.cells, rule);
      const n = level.cells.reduce((s, c) => s + c.n, 0);
      return {
        subject: member.label,
        n,
        counted,
        successes,
        accuracy: counted > 0 ? successes / counted : null,
        ci95: counted > 0 ? clopperPearson(successes, counted) : null,
      };
    });
    const comparisons = pairsToCompare(sides, (side) => side.member.label === baseline).map(([x, y]) =>
      unadjusted(
        compareAccuracy(
          { label: x.member.label, seed: x.member.seed, levels: [x.level] },
          { label: y.member.label, seed: y.member.seed, levels: [y.level] },
          rule,
        ),
      ),
    );
    tests.push(...comparisons);
    return {
      task: first.task,
      variant: first.variant,
      profile: first.profile,
      level: first.level,
      subjects,
      comparisons,
    };
  });
  return { rows, tests };
}
