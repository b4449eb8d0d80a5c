import type { PyRandom } from '../../../rng/index.js';
import type { AnyTaskPlugin, Prompt, SimKnobs, TaskInstance, TaskPlugin } from '../../task.js';
import {
  gradeSolvable,
  jsonLines,
  levelRow,
  PUZZLE_LEVELS,
  PUZZLE_SYSTEM_PROMPT,
  parseJsonList,
} from '../common/index.js';
import { PUZZLE_SIM_DEFAULT } from '../common/levels.js';
import { type JugOperator, type JugState, jugTrace, solveJug, validateJug } from './rules.js';

/** (capacity A, capacity B, goal) per level (docs/spec/puzzles.md §1.2); BFS minimum steps 4, 6, 8, 12, 16, 24. */
export const JUG_LEVELS: readonly (readonly [capA: number, capB: number, goal: number])[] = [
  [4, 5, 3],
  [3, 5, 4],
  [4, 9, 6],
  [4, 13, 6],
  [4, 17, 6],
  [5, 21, 8],
];
/** Output-token budget per level; answers are ≤ 24 steps, the budget is for arithmetic state tracking. */
export const JUG_MAX_TOKENS = [4096, 4096, 8192, 8192, 16384, 16384] as const;

export interface JugData {
  capacityA: number;
  capacityB: number;
  goal: number;
  minSteps: number;
  /** Fixed by the level: the instance is deterministic, the generator draws nothing from the RNG. */
  generationAttempts: 1;
}
export type JugInstance = TaskInstance<JugData, JugState, JugOperator[]>;

function renderJug(instance: JugInstance): Prompt {
  const { capacityA: a, capacityB: b, goal } = instance.data;
  const user = [
    `Water jug puzzle: jug A holds at most ${a} litres and jug B at most ${b} litres. Both start empty, and`,
    'there is an unlimited supply of water.',
    `Goal: after your last step, one of the jugs (A or B) holds exactly ${goal} litres.`,
    '',
    'Operations (use exactly these spellings):',
    '- "Fill A", "Fill B": fill that jug to its capacity.',
    '- "Empty A", "Empty B": pour that jug out completely.',
    '- "Pour A to B", "Pour B to A": pour from the first jug into the second until the first is empty or the',
    '  second is full, whichever happens first.',
    '',
    'Output format:',
    'End your response with the complete sequence of steps as one strict JSON list assigned to `moves`, each step',
    'a one-element list holding the operation. For example, filling B and then pouring B into A is written',
    'moves = [["Fill B"], ["Pour B to A"]]',
  ].join('\n');
  return { system: PUZZLE_SYSTEM_PROMPT, user };
}

const formatMoves = (ops: readonly JugOperator[]): string => `moves = ${jsonLines(ops.map((op) => [op]))}`;

const SLIPS: Record<JugOperator, JugOperator[]> = {
  'Fill A': ['Fill B', 'Empty A'],
  'Fill B': ['Fill A', 'Empty B'],
  'Empty A': ['Empty B', 'Pour A to B'],
  'Empty B': ['Empty A', 'Pour B to A'],
  'Pour A to B': ['Pour B to A', 'Empty A'],
  'Pour B to A': ['Pour A to B', 'Empty B'],
};

/** Each step is right with probability `retention`; otherwise the wrong jug or direction, and the plan carries on. */
function simulateJug(instance: JugInstance, rng: PyRandom, knobs: SimKnobs): string {
  const ops = instance.answer.map((op) => (rng.random() < knobs.retention ? op : rng.choice(SLIPS[op])));
  return `Tracking both jugs after every step.\n\n${formatMoves(ops)}`;
}

export const jugPlugin: TaskPlugin<JugInstance, unknown[]> = {
  id: 'jug',
  family: 'puzzle',
  project: 'puzzles',
  analysis: 'collapse',
  simDefault: PUZZLE_SIM_DEFAULT,
  title: 'Water jug',
  // Tuple-valued knob (cA, cB, g): λ* only on the level index (docs/spec/puzzles.md §1.3).
  levels: { kind: 'level', values: PUZZLE_LEVELS },
  variants: ['standard'],
  profiles: ['default'],
  fixedInstancePerLevel: true,
  generate(_rng, level, options) {
    const [capacityA, capacityB, goal] = levelRow('jug', JUG_LEVELS, level);
    const answer = solveJug(capacityA, capacityB, goal);
    if (answer === null)
      throw new Error(`jug: (${capacityA}, ${capacityB}, ${goal}) is unsolvable; fix the level table`);
    return {
      task: 'jug',
      level,
      seed: options.seed,
      profile: options.profile ?? 'default',
      data: { capacityA, capacityB, goal, minSteps: answer.length, generationAttempts: 1 },
      trace: jugTrace(answer, capacityA, capacityB),
      answer,
    };
  },
  instanceKey: (i) => `jug:${i.data.capacityA},${i.data.capacityB},${i.data.goal}`,
  render: (instance) => renderJug(instance),
  canonicalResponse: (instance) => formatMoves(instance.answer),
  parse: (text) => parseJsonList(text, 'moves'),
  grade: (instance, text, context) =>
    gradeSolvable(
      text,
      context,
      (t) => parseJsonList(t, 'moves'),
      (moves) => validateJug(instance.data.capacityA, instance.data.capacityB, instance.data.goal, moves),
      (moves) => moves.length === 0,
    ),
  simulate: simulateJug,
  maxOutputTokens: (level) => levelRow('jug', JUG_MAX_TOKENS, level),
};

export const jugTask: AnyTaskPlugin = jugPlugin;
