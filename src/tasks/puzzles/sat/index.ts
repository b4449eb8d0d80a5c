import type { PyRandom } from '../../../rng/index.js';
import type { AnyTaskPlugin, GradeContext, SimKnobs, TaskInstance, TaskPlugin } from '../../task.js';
import { puzzleTokenBudget } from '../common/budget.js';
import { gradeSolvable, PUZZLE_LEVELS } from '../common/index.js';
import { PUZZLE_SIM_DEFAULT } from '../common/levels.js';
import { generateSat, type SatData } from './generate.js';
import { satLevel } from './levels.js';
import { formatSatAnswer, renderSat } from './render.js';
import { parseSat, SAT_ANSWER_NAME, type SatAnswer, validateSat } from './validate.js';

export { dpll } from './dpll.js';
export { generateSat, Q_HIDDEN, type SatData, trueLiterals } from './generate.js';
export { SAT_LEVELS, satLevel } from './levels.js';
export { formatSatAnswer, renderSat } from './render.js';
export { formatClause, parseSat, SAT_ANSWER_NAME, type SatAnswer, validateSat } from './validate.js';

/** `answer`: the planted assignment as the JSON object the template asks for. */
export type SatInstance = TaskInstance<SatData, never, Record<string, boolean>>;

const answerText = (instance: SatInstance): string => formatSatAnswer(instance.data.planted);

const plugin: TaskPlugin<SatInstance, SatAnswer> = {
  id: 'sat',
  family: 'puzzle',
  project: 'puzzles',
  analysis: 'collapse',
  simDefault: PUZZLE_SIM_DEFAULT,
  title: 'Boolean 3-SAT (planted, q-hidden)',
  levels: { kind: 'level', values: PUZZLE_LEVELS, knob: () => undefined },
  variants: ['standard'],
  profiles: ['default'],

  generate(rng: PyRandom, level: number, options): SatInstance {
    const { n, m } = satLevel(level);
    const data = generateSat(rng, n, m);
    const answer = Object.fromEntries(data.planted.map((value, i) => [String(i + 1), value]));
    return { task: 'sat', level, seed: options.seed, profile: 'default', data, trace: [], answer };
  },

  instanceKey: (instance) => JSON.stringify(instance.data.clauses),
  render: (instance) => renderSat(instance.data),
  canonicalResponse: (instance) => `${SAT_ANSWER_NAME} = ${answerText(instance)}`,
  parse: parseSat,

  grade(instance, text, context: GradeContext = {}) {
    return gradeSolvable(
      text,
      context,
      parseSat,
      (answer) => validateSat(instance.data.clauses, answer),
      (answer) => answer.values.size === 0,
    );
  },

  /** Each variable keeps its planted value with probability `retention`, otherwise it is flipped. */
  simulate(instance, rng: PyRandom, knobs: SimKnobs) {
    const values = instance.data.planted.map((value) => (rng.random() < knobs.retention ? value : !value));
    return `${SAT_ANSWER_NAME} = ${formatSatAnswer(values)}`;
  },

  /** About 6 tokens per `"k": false` entry. */
  maxOutputTokens: (level) => puzzleTokenBudget(level, 6 * satLevel(level).n + 8),
};

export const satTask: AnyTaskPlugin = plugin;
