import type { PyRandom } from '../../../rng/index.js';
import type { AnyTaskPlugin, GradeContext, SimKnobs, TaskInstance, TaskPlugin } from '../../task.js';
import { puzzleTokenBudget } from '../common/budget.js';
import { gradeSolvable, PUZZLE_LEVELS } from '../common/index.js';
import { PUZZLE_SIM_DEFAULT } from '../common/levels.js';
import { generateRubik, type RubikData, rubikScrambleLength } from './generate.js';
import { invertSequence } from './notation.js';
import { formatRubikAnswer, renderRubik } from './render.js';
import { parseRubik, type RubikAnswer, validateRubik } from './validate.js';

export { applyPermutation, faceletIssues, isSolved, SOLVED } from './cube.js';
export { canFollow, exactDistanceUpTo, FACE_TURNS } from './distance.js';
export {
  canonicalScramble,
  generateRubik,
  RUBIK_SCRAMBLE_LENGTHS,
  type RubikData,
  rubikScrambleLength,
} from './generate.js';
export { invertSequence, parseMoveToken, sequencePermutation } from './notation.js';
export { formatRubikAnswer, renderRubik } from './render.js';
export { parseRubik, RUBIK_ANSWER_NAME, type RubikAnswer, validateRubik } from './validate.js';

/** `answer`: the inverse scramble, an optimal solution. */
export type RubikInstance = TaskInstance<RubikData, never, string[]>;

const plugin: TaskPlugin<RubikInstance, RubikAnswer> = {
  id: 'rubik',
  family: 'puzzle',
  project: 'puzzles',
  analysis: 'collapse',
  simDefault: PUZZLE_SIM_DEFAULT,
  title: "Rubik's Cube 3×3 (canonical scramble, optimal distance = level length)",
  levels: { kind: 'level', values: PUZZLE_LEVELS, knob: (level) => rubikScrambleLength(level) },
  variants: ['standard'],
  profiles: ['default'],

  generate(rng: PyRandom, level: number, options): RubikInstance {
    const data = generateRubik(rng, rubikScrambleLength(level));
    const answer = invertSequence(data.scramble);
    return { task: 'rubik', level, seed: options.seed, profile: 'default', data, trace: [], answer };
  },

  instanceKey: (instance) => instance.data.scramble.join(' '),
  render: (instance) => renderRubik(instance.data),
  canonicalResponse: (instance) => formatRubikAnswer(instance.answer),
  parse: parseRubik,

  grade(instance, text, context: GradeContext = {}) {
    return gradeSolvable(
      text,
      context,
      parseRubik,
      (answer) => validateRubik(instance.data.state, answer),
      (answer) => answer.tokens.length === 0,
    );
  },

  /**
   * Each move of the inverse scramble is right with probability `retention`; otherwise the same face is
   * turned by a wrong amount (the typical direction slip), which leaves the cube unsolved.
   */
  simulate(instance, rng: PyRandom, knobs: SimKnobs) {
    const moves = instance.answer.map((token) => {
      if (rng.random() < knobs.retention) return token;
      const face = token[0];
      const wrong = ['', "'", '2'].map((s) => `${face}${s}`).filter((t) => t !== token);
      return rng.choice(wrong);
    });
    return formatRubikAnswer(moves);
  },

  /** About 4 tokens per quoted move. */
  maxOutputTokens: (level) => puzzleTokenBudget(level, 4 * rubikScrambleLength(level) + 8),
};

export const rubikTask: AnyTaskPlugin = plugin;
