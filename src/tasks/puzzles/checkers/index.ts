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
import { type CheckerMove, checkersTrace, goalBoard, initialBoard, solveCheckers, validateCheckers } from './rules.js';

/** Checkers per colour per level (docs/spec/puzzles.md §1.2): minimum (= every valid) length n(n+2) = 3, 8, 15, 24, 35, 48. */
export const CHECKERS_PER_COLOUR = [1, 2, 3, 4, 5, 6] as const;
/** Output-token budget per level; the L6 answer is ≈ 48 moves × 8 tokens, so the budget is for reasoning. */
export const CHECKERS_MAX_TOKENS = [4096, 4096, 8192, 8192, 16384, 16384] as const;

export interface CheckersData {
  checkersPerColour: number;
  cells: number;
  initialBoard: string;
  goalBoard: string;
  minMoves: number;
  /** Fixed by the level: the instance is deterministic, the generator draws nothing from the RNG. */
  generationAttempts: 1;
}
export type CheckersInstance = TaskInstance<CheckersData, string, CheckerMove[]>;

const spaced = (board: string): string => board.split('').join(' ');

function renderCheckers(instance: CheckersInstance): Prompt {
  const { checkersPerColour: n, cells } = instance.data;
  const user = [
    `Checker jumping puzzle with ${n} red and ${n} blue checkers on a row of ${cells} cells numbered 0 to ${cells - 1}.`,
    '',
    `Initial board (cell 0 first; R = red, B = blue, _ = empty): ${spaced(instance.data.initialBoard)}`,
    `Goal board: ${spaced(instance.data.goalBoard)}`,
    '',
    'Rules:',
    '- One checker moves per move, always into the single empty cell.',
    '- A checker either slides one cell into the adjacent empty cell, or jumps over exactly one checker into the',
    '  empty cell directly beyond it.',
    '- Red checkers only move right (to higher cell numbers); blue checkers only move left (to lower cell',
    '  numbers). No checker ever moves backwards.',
    '',
    'Output format:',
    'End your response with the complete move sequence, from the initial board to the goal board, as one strict',
    'JSON list assigned to `moves`. Each move is ["colour", from, to]: "R" or "B" for the colour of the moved',
    'checker and the cell numbers it moves from and to. For example, sliding the red checker from cell 3 to cell',
    '4 and then jumping the blue checker from cell 5 to cell 3 is written',
    'moves = [["R", 3, 4], ["B", 5, 3]]',
  ].join('\n');
  return { system: PUZZLE_SYSTEM_PROMPT, user };
}

const formatMoves = (moves: readonly unknown[]): string => `moves = ${jsonLines(moves)}`;

/** Each move is right with probability `retention`; otherwise a plausible slip (wrong distance or a backwards step). */
function simulateCheckers(instance: CheckersInstance, rng: PyRandom, knobs: SimKnobs): string {
  const moves = instance.answer.map(([colour, from, to]): CheckerMove => {
    if (rng.random() < knobs.retention) return [colour, from, to];
    const dir = colour === 'R' ? 1 : -1;
    const distance = Math.abs(to - from);
    // Slip: a slide confused with a jump (or vice versa), or the step taken backwards.
    if (rng.random() < 0.5) return [colour, from, from + dir * (3 - distance)];
    return [colour, from, from - dir * distance];
  });
  return `Tracking the board after every move.\n\n${formatMoves(moves)}`;
}

export const checkersPlugin: TaskPlugin<CheckersInstance, unknown[]> = {
  id: 'checkers',
  family: 'puzzle',
  project: 'puzzles',
  analysis: 'collapse',
  simDefault: PUZZLE_SIM_DEFAULT,
  title: 'Checker jumping',
  levels: { kind: 'level', values: PUZZLE_LEVELS, knob: (level) => CHECKERS_PER_COLOUR[level - 1] },
  variants: ['standard'],
  profiles: ['default'],
  fixedInstancePerLevel: true,
  generate(_rng, level, options) {
    const n = levelRow('checkers', CHECKERS_PER_COLOUR, level);
    const answer = solveCheckers(n);
    return {
      task: 'checkers',
      level,
      seed: options.seed,
      profile: options.profile ?? 'default',
      data: {
        checkersPerColour: n,
        cells: 2 * n + 1,
        initialBoard: initialBoard(n),
        goalBoard: goalBoard(n),
        minMoves: n * (n + 2),
        generationAttempts: 1,
      },
      trace: checkersTrace(n, answer),
      answer,
    };
  },
  instanceKey: (instance) => `checkers:n=${instance.data.checkersPerColour}`,
  render: (instance) => renderCheckers(instance),
  canonicalResponse: (instance) => formatMoves(instance.answer),
  parse: (text) => parseJsonList(text, 'moves'),
  grade: (instance, text, context) =>
    gradeSolvable(
      text,
      context,
      (t) => parseJsonList(t, 'moves'),
      (moves) => validateCheckers(instance.data.checkersPerColour, moves),
      (moves) => moves.length === 0,
    ),
  simulate: simulateCheckers,
  maxOutputTokens: (level) => levelRow('checkers', CHECKERS_MAX_TOKENS, level),
};

export const checkersTask: AnyTaskPlugin = checkersPlugin;
