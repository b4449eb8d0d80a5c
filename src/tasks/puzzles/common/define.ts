import type { PyRandom } from '../../../rng/index.js';
import type { PuzzleOutcome } from '../../outcome.js';
import {
  type GenerateOptions,
  type GradeContext,
  type Prompt,
  type SimKnobs,
  stepwiseSim,
  type TaskInstance,
  type TaskPlugin,
} from '../../task.js';
import type { AnswerFormat } from './answer-format.js';
import type { OutputBudget } from './budget.js';
import { gradeSolvable } from './grade.js';
import { levelRow, type PerLevel, PUZZLE_LEVELS } from './levels.js';
import { PUZZLE_SYSTEM_PROMPT } from './prompt.js';

/**
 * Output-budget rules of every puzzle. `fixed` (default): one budget for all levels — the largest level's, which
 * holds its canonical answer with room to reason — as the paper does ("no adaptive increase in token budget at
 * higher complexity levels"), so a collapse despite available room is visible. `per-level`: the budget grows with
 * the level (each family's table or answer-sized rule).
 */
export const PUZZLE_BUDGETS = ['fixed', 'per-level'] as const;
/** What a puzzle's generator produces for one level; `definePuzzle` adds the id, level, seed and profile. */
export interface PuzzleContent<Data, State, Solution> {
  data: Data;
  /** The canonical state after each move; omitted (empty) where the family has no stepwise state. */
  trace?: State[];
  /** The known solution: the canonical response writes it, the simulated model starts from it. */
  answer: Solution;
}

/** The data every puzzle whose level alone fixes the instance (`fixedInstancePerLevel`) records. */
export interface FixedInstanceData {
  /** The generator draws nothing from the RNG: the first attempt is the instance. */
  generationAttempts: 1;
}

/**
 * Everything a puzzle family declares: what differs between puzzles. `definePuzzle` supplies the rest of the
 * TaskPlugin contract (src/tasks/task.ts) once, alike for all nine.
 */
export interface PuzzleDeclaration<Row, Data, State, Solution, Answer> {
  /** The task id (`hanoi`); the registry resolves the plugin by it. */
  id: string;
  title: string;
  /** The parameters of each level, L1 first (docs/spec/puzzles.md §1.2). */
  levels: PerLevel<Row>;
  /** The level's scalar knob (e.g. Hanoi's disk count), for λ* on the raw axis; omit where the row is a tuple. */
  knob?: (row: Row) => number;
  /** The row alone determines the instance: `generate` draws nothing from the RNG. */
  fixedInstancePerLevel?: boolean;
  /** One instance from a seeded RNG, deterministic in (rng state, row). */
  generate(row: Row, rng: PyRandom): PuzzleContent<Data, State, Solution>;
  /** A key for de-duplicating instances within a level. */
  instanceKey(instance: TaskInstance<Data, State, Solution>): string;
  /** The user prompt: rules, instance and output format (the system prompt is shared by every puzzle). */
  render(instance: TaskInstance<Data, State, Solution>): string;
  /** The answer block the prompt asks for and how it is read. */
  answerFormat: AnswerFormat<Answer>;
  /**
   * A solution as the prompt's output format writes it after `name = ` (canonical and simulated responses).
   * The solution type is the one `generate` returns; a writer of a wider type (e.g. any JSON list) must not widen it.
   */
  writeAnswer(solution: NoInfer<Solution>, instance: TaskInstance<Data, State, Solution>): string;
  /** The strict validator: pass, or fail with the issues and the first offending step. */
  validate(instance: TaskInstance<Data, State, Solution>, answer: Answer): PuzzleOutcome;
  /** The simulated model's solution: the known one with slips at rate 1 − retention. */
  simulate(instance: TaskInstance<Data, State, Solution>, rng: PyRandom, knobs: SimKnobs): Solution;
  /** What the simulated model writes before its answer block, if anything. */
  simulatedReasoning?: string;
  maxOutputTokens: OutputBudget<Row>;
}

/** A puzzle plugin: a TaskPlugin whose grade returns the puzzle outcome record. */
export type PuzzleTask<I extends TaskInstance, Answer> = TaskPlugin<I, Answer> & {
  grade(instance: I, text: string, context?: GradeContext): PuzzleOutcome;
};

/** sim:default on every puzzle: retention p = 0.90 per move at every level (longer solutions collapse). */
const PUZZLE_SIM_DEFAULT: SimKnobs = stepwiseSim(0.9);
const PUZZLE_VARIANTS = ['standard'] as const;
const PUZZLE_PROFILES = ['default'] as const;

/** A puzzle task from its declaration; see PuzzleDeclaration for what a family states. */
export function definePuzzle<Row, Data, State, Solution, Answer>(
  declaration: PuzzleDeclaration<Row, Data, State, Solution, Answer>,
): PuzzleTask<TaskInstance<Data, State, Solution>, Answer> {
  type Instance = TaskInstance<Data, State, Solution>;
  const { id, levels, knob, answerFormat } = declaration;
  // Every level-taking method looks its row up first, so an undefined level throws the same RangeError.
  const rowOf = (level: number): Row => levelRow(id, levels, level);
  let fixedBudget: number | undefined;
  const respond = (solution: Solution, instance: Instance): string =>
    `${answerFormat.name} = ${declaration.writeAnswer(solution, instance)}`;
  return {
    id,
    family: 'puzzle',
    project: 'puzzles',
    analysis: 'collapse',
    simDefault: PUZZLE_SIM_DEFAULT,
    title: declaration.title,
    levels: knob
      ? { kind: 'level', values: PUZZLE_LEVELS, knob: (level) => knob(rowOf(level)) }
      : { kind: 'level', values: PUZZLE_LEVELS },
    variants: PUZZLE_VARIANTS,
    profiles: PUZZLE_PROFILES,
    ...(declaration.fixedInstancePerLevel ? { fixedInstancePerLevel: true } : {}),
    generate(rng: PyRandom, level: number, options: GenerateOptions & { seed: number }): Instance {
      const { data, trace = [], answer } = declaration.generate(rowOf(level), rng);
      // Puzzles have one profile: the instance records it, whatever the caller asked for.
      return { task: id, level, seed: options.seed, profile: PUZZLE_PROFILES[0], data, trace, answer };
    },
    instanceKey: (instance) => declaration.instanceKey(instance),
    render: (instance): Prompt => ({ system: PUZZLE_SYSTEM_PROMPT, user: declaration.render(instance) }),
    canonicalResponse: (instance) => respond(instance.answer, instance),
    parse: (text) => answerFormat.parse(text),
    grade: (instance, text, context) =>
      gradeSolvable(text, context, answerFormat, (answer) => declaration.validate(instance, answer)),
    simulate(instance, rng, knobs) {
      const response = respond(declaration.simulate(instance, rng, knobs), instance);
      return declaration.simulatedReasoning ? `${declaration.simulatedReasoning}\n\n${response}` : response;
    },
    budgets: PUZZLE_BUDGETS,
    maxOutputTokens(level, budget = PUZZLE_BUDGETS[0]) {
      const perLevel = declaration.maxOutputTokens(rowOf(level), level);
      if (budget === 'per-level') return perLevel;
      if (budget !== 'fixed') {
        throw new RangeError(`${id}: unknown budget '${budget}'; use one of ${PUZZLE_BUDGETS.join(', ')}`);
      }
      // the paper fixes one budget for every level, so that a collapse despite room to spare shows
      fixedBudget ??= Math.max(...PUZZLE_LEVELS.map((l) => declaration.maxOutputTokens(rowOf(l), l)));
      return fixedBudget;
    },
  };
}
