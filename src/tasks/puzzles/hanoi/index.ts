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
import { type HanoiMove, type HanoiState, hanoiTrace, PEGS, type Peg, solveHanoi, validateHanoi } from './rules.js';

/** Disks per level (docs/spec/puzzles.md §1.2): minimum moves 7, 15, 31, 63, 255, 1023. */
export const HANOI_DISKS = [3, 4, 5, 6, 8, 10] as const;
/**
 * Output-token budget per level: ≥ 4× the canonical answer's length (≈ 9 tokens per move) plus room to
 * reason; L6's answer alone is ≈ 9.2k tokens.
 */
export const HANOI_MAX_TOKENS = [4096, 4096, 8192, 8192, 16384, 32768] as const;

export interface HanoiData {
  disks: number;
  minMoves: number;
  /** Fixed by the level: the instance is deterministic, the generator draws nothing from the RNG. */
  generationAttempts: 1;
}
export type HanoiInstance = TaskInstance<HanoiData, HanoiState, HanoiMove[]>;

function renderHanoi(instance: HanoiInstance): Prompt {
  const n = instance.data.disks;
  const user = [
    `Tower of Hanoi with ${n} disks.`,
    '',
    'Rules:',
    `- There are three pegs, A, B and C, and ${n} disks numbered 1 (smallest) to ${n} (largest).`,
    `- Initially all disks are on peg A, largest at the bottom: A = [${n}, ..., 1] (bottom to top); B and C are empty.`,
    '- Each move takes the top disk of one peg and puts it on top of a different peg.',
    '- A disk may never be placed on top of a smaller disk.',
    `- Goal: all ${n} disks on peg C, largest at the bottom.`,
    '',
    'Output format:',
    'End your response with the complete move sequence, from the initial state to the goal, as one strict JSON',
    'list assigned to `moves`. Each move is [disk, "from", "to"]: the integer number of the disk you move and',
    'the letters of its source and destination pegs. For example, moving disk 1 from A to B and then disk 2',
    'from A to C is written',
    'moves = [[1, "A", "B"], [2, "A", "C"]]',
  ].join('\n');
  return { system: PUZZLE_SYSTEM_PROMPT, user };
}

const formatMoves = (moves: readonly unknown[]): string => `moves = ${jsonLines(moves)}`;

/** Each move is right with probability `retention`; otherwise a plausible slip, and the plan carries on. */
function simulateHanoi(instance: HanoiInstance, rng: PyRandom, knobs: SimKnobs): string {
  const n = instance.data.disks;
  const moves: HanoiMove[] = instance.answer.map(([disk, from, to]): HanoiMove => {
    if (rng.random() < knobs.retention) return [disk, from, to];
    const other = PEGS.find((p) => p !== from && p !== to) as Peg;
    // Slip: the right disk to the wrong peg, or a neighbouring disk number (a hallucinated top disk).
    if (rng.random() < 0.5) return [disk, from, other];
    return [disk === n ? disk - 1 : disk + 1, from, to];
  });
  return `Working through the recursion step by step.\n\n${formatMoves(moves)}`;
}

export const hanoiPlugin: TaskPlugin<HanoiInstance, unknown[]> = {
  id: 'hanoi',
  family: 'puzzle',
  project: 'puzzles',
  analysis: 'collapse',
  simDefault: PUZZLE_SIM_DEFAULT,
  title: 'Tower of Hanoi',
  levels: { kind: 'level', values: PUZZLE_LEVELS, knob: (level) => HANOI_DISKS[level - 1] },
  variants: ['standard'],
  profiles: ['default'],
  fixedInstancePerLevel: true,
  generate(_rng, level, options) {
    const disks = levelRow('hanoi', HANOI_DISKS, level);
    const answer = solveHanoi(disks);
    return {
      task: 'hanoi',
      level,
      seed: options.seed,
      profile: options.profile ?? 'default',
      data: { disks, minMoves: 2 ** disks - 1, generationAttempts: 1 },
      trace: hanoiTrace(disks, answer),
      answer,
    };
  },
  instanceKey: (instance) => `hanoi:n=${instance.data.disks}`,
  render: (instance) => renderHanoi(instance),
  canonicalResponse: (instance) => formatMoves(instance.answer),
  parse: (text) => parseJsonList(text, 'moves'),
  grade: (instance, text, context) =>
    gradeSolvable(
      text,
      context,
      (t) => parseJsonList(t, 'moves'),
      (moves) => validateHanoi(instance.data.disks, moves),
      (moves) => moves.length === 0,
    ),
  simulate: simulateHanoi,
  maxOutputTokens: (level) => levelRow('hanoi', HANOI_MAX_TOKENS, level),
};

export const hanoiTask: AnyTaskPlugin = hanoiPlugin;
