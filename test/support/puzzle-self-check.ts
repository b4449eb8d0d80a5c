import { PyRandom } from '../../src/rng/index.js';
import type { AnyTaskPlugin } from '../../src/tasks/task.js';

/**
 * The grading contract every always-solvable puzzle family must honour on one (level, seed) cell
 * (issue 8 acceptance): the canonical response passes; an empty answer, an impossibility claim and the
 * canonical response cut in half by the token limit collapse. Returns the violations (empty when all hold).
 */
export function puzzleSelfCheck(
  plugin: AnyTaskPlugin,
  level: number,
  seed: number,
  options: { halfAnswerWithoutLimitCollapses?: boolean } = {},
): string[] {
  const instance = plugin.generate(new PyRandom(seed), level, { seed });
  const canonical = plugin.canonicalResponse(instance);
  const expectations: [string, string, 'stop' | 'length', string][] = [
    ['canonical response', canonical, 'stop', 'pass'],
    ['empty answer', '', 'stop', 'collapse'],
    [
      'impossibility claim',
      'After careful analysis, this puzzle is impossible: there is no solution.',
      'stop',
      'collapse',
    ],
    ['half answer cut by the token limit', canonical.slice(0, Math.floor(canonical.length / 2)), 'length', 'collapse'],
  ];
  // Opt-in: for bracketed answer blocks the same half answer is unclosed, hence unparseable, even without the limit.
  if (options.halfAnswerWithoutLimitCollapses) {
    expectations.push([
      'half answer (finish_reason=stop)',
      canonical.slice(0, Math.floor(canonical.length / 2)),
      'stop',
      'collapse',
    ]);
  }
  const problems: string[] = [];
  for (const [label, text, finishReason, expected] of expectations) {
    const outcome = plugin.grade(instance, text, { finishReason });
    if (outcome.kind !== expected) {
      problems.push(
        `${plugin.id} L${level} seed ${seed}: ${label} graded ${outcome.kind}, expected ${expected} (${outcome.issues.join('; ')})`,
      );
    }
  }
  return problems;
}
