import type { PyRandom } from '../../../rng/index.js';
import type { AnyTaskPlugin, GradeContext, SimKnobs, TaskInstance, TaskPlugin } from '../../task.js';
import { puzzleTokenBudget } from '../common/budget.js';
import { gradeSolvable, PUZZLE_LEVELS } from '../common/index.js';
import { PUZZLE_SIM_DEFAULT } from '../common/levels.js';
import { type CryptData, generateCrypt } from './generate.js';
import { cryptLevel } from './levels.js';
import { formatCryptAnswer, renderCrypt } from './render.js';
import { type CryptAnswer, parseCrypt, validateCrypt } from './validate.js';

export { type Cryptarithm, countSolutions } from './counter.js';
export { type CryptData, generateCrypt } from './generate.js';
export { CRYPT_LEVELS, type CryptLevel, cryptLevel } from './levels.js';
export { formatCryptAnswer, renderCrypt } from './render.js';
export { CRYPT_ANSWER_NAME, type CryptAnswer, parseCrypt, validateCrypt } from './validate.js';

/** `answer`: the unique solution (letter → digit). */
export type CryptInstance = TaskInstance<CryptData, never, Record<string, number>>;

const plugin: TaskPlugin<CryptInstance, CryptAnswer> = {
  id: 'crypt',
  family: 'puzzle',
  project: 'puzzles',
  analysis: 'collapse',
  simDefault: PUZZLE_SIM_DEFAULT,
  title: 'Cryptarithmetic (addition, unique solution)',
  levels: { kind: 'level', values: PUZZLE_LEVELS, knob: () => undefined },
  variants: ['standard'],
  profiles: ['default'],

  generate(rng: PyRandom, level: number, options): CryptInstance {
    const data = generateCrypt(rng, cryptLevel(level));
    return { task: 'crypt', level, seed: options.seed, profile: 'default', data, trace: [], answer: data.solution };
  },

  instanceKey: (instance) => instance.data.equation,
  render: (instance) => renderCrypt(instance.data),
  canonicalResponse: (instance) => formatCryptAnswer(instance.answer),
  parse: parseCrypt,

  grade(instance, text, context: GradeContext = {}) {
    return gradeSolvable(
      text,
      context,
      parseCrypt,
      (answer) => validateCrypt(instance.data.addends, instance.data.result, answer),
      (answer) => answer.entries.length === 0,
    );
  },

  /** Each letter keeps its digit with probability `retention`, otherwise it gets another random digit. */
  simulate(instance, rng: PyRandom, knobs: SimKnobs) {
    const mapping: Record<string, number> = {};
    for (const letter of instance.data.letters) {
      const right = instance.answer[letter];
      mapping[letter] = rng.random() < knobs.retention ? right : (right + 1 + rng.randbelow(9)) % 10;
    }
    return formatCryptAnswer(mapping);
  },

  /** About 5 tokens per `"A": 1` entry. */
  maxOutputTokens: (level) => puzzleTokenBudget(level, 5 * cryptLevel(level).maxLetters + 8),
};

export const cryptTask: AnyTaskPlugin = plugin;
