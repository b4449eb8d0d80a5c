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
import { actorName, agentName, solveRiver, type Trip, tripNames } from './rules.js';
import { validateRiver } from './validate.js';

/** (pairs n, boat capacity k) per level (docs/spec/puzzles.md §1.2); minimum crossings 5, 11, 9, 11, 11, 17. */
export const RIVER_LEVELS: readonly (readonly [pairs: number, capacity: number])[] = [
  [2, 2],
  [3, 2],
  [4, 3],
  [5, 3],
  [7, 4],
  [10, 4],
];
/** Output-token budget per level; answers are short (≤ 17 trips), the budget is for the safety search. */
export const RIVER_MAX_TOKENS = [4096, 4096, 8192, 8192, 16384, 16384] as const;

export interface RiverData {
  pairs: number;
  capacity: number;
  minCrossings: number;
  /** States reached by the BFS that proved solvability and minimality. */
  statesExplored: number;
  /** Fixed by the level: the instance is deterministic, the generator draws nothing from the RNG. */
  generationAttempts: 1;
}
/** Trace: the people on the left bank after each canonical trip. */
export type RiverInstance = TaskInstance<RiverData, string[], Trip[]>;

function renderRiver(instance: RiverInstance): Prompt {
  const { pairs: n, capacity: k } = instance.data;
  const pairsList = Array.from({ length: n }, (_, i) => `${agentName(i + 1)}/${actorName(i + 1)}`).join(', ');
  const user = [
    `River crossing with ${n} actor-agent pairs and a boat that holds at most ${k} people.`,
    '',
    `People: ${pairsList} (agent A_i and actor a_i form pair i). Everyone starts on the left bank, with the boat.`,
    '',
    'Rules:',
    `- Each crossing carries between 1 and ${k} people; the boat never crosses empty.`,
    '- Crossings alternate direction: the first goes from the left bank to the right bank, the second back to the',
    '  left bank, and so on. The boat can only carry people who are on the bank it leaves from.',
    '- Safety: an actor may never be in the presence of another agent unless her own agent is also present. This',
    '  holds in the boat during every crossing and on both banks after every crossing. A group is unsafe when it',
    '  contains some actor a_i without A_i and at least one agent.',
    '- Goal: everyone on the right bank.',
    '',
    'Output format:',
    'End your response with the complete sequence of crossings as one strict JSON list assigned to `moves`. Each',
    'crossing is the list of the names of the people in the boat. For example, A_1 and a_1 crossing to the right',
    'bank and A_1 returning alone is written',
    'moves = [["A_1", "a_1"], ["A_1"]]',
  ].join('\n');
  return { system: PUZZLE_SYSTEM_PROMPT, user };
}

const formatMoves = (moves: readonly unknown[]): string => `moves = ${jsonLines(moves)}`;

/** Each trip is right with probability `retention`; otherwise one passenger is swapped for a member of another pair. */
function simulateRiver(instance: RiverInstance, rng: PyRandom, knobs: SimKnobs): string {
  const n = instance.data.pairs;
  const trips = instance.answer.map((trip): Trip => {
    if (rng.random() < knobs.retention || n < 2) return trip;
    const slot = rng.randbelow(trip.length);
    const [role, pair] = trip[slot].split('_');
    const other = ((Number(pair) - 1 + 1 + rng.randbelow(n - 1)) % n) + 1;
    const swapped = `${role}_${other}`;
    // Dropping the passenger instead when the swap would duplicate a name keeps the slip well-formed.
    return trip.includes(swapped) ? trip.filter((_, i) => i !== slot) : trip.map((p, i) => (i === slot ? swapped : p));
  });
  return `Checking the boat and both banks after every crossing.\n\n${formatMoves(trips)}`;
}

export const riverPlugin: TaskPlugin<RiverInstance, unknown[]> = {
  id: 'river',
  family: 'puzzle',
  project: 'puzzles',
  analysis: 'collapse',
  simDefault: PUZZLE_SIM_DEFAULT,
  title: 'River crossing',
  // Tuple-valued knob (n, k): λ* only on the level index (docs/spec/puzzles.md §1.3).
  levels: { kind: 'level', values: PUZZLE_LEVELS },
  variants: ['standard'],
  profiles: ['default'],
  fixedInstancePerLevel: true,
  generate(_rng, level, options) {
    const [pairs, capacity] = levelRow('river', RIVER_LEVELS, level);
    const solution = solveRiver(pairs, capacity);
    if (solution.minCrossings === null)
      throw new Error(`river: (${pairs}, ${capacity}) is unsolvable; fix the level table`);
    let left = (1 << (2 * pairs)) - 1;
    const trace = solution.trips.map((load, i) => {
      left = i % 2 === 0 ? left & ~load : left | load;
      return tripNames(left, pairs);
    });
    return {
      task: 'river',
      level,
      seed: options.seed,
      profile: options.profile ?? 'default',
      data: {
        pairs,
        capacity,
        minCrossings: solution.minCrossings,
        statesExplored: solution.statesExplored,
        generationAttempts: 1,
      },
      trace,
      answer: solution.trips.map((load) => tripNames(load, pairs)),
    };
  },
  instanceKey: (instance) => `river:n=${instance.data.pairs},k=${instance.data.capacity}`,
  render: (instance) => renderRiver(instance),
  canonicalResponse: (instance) => formatMoves(instance.answer),
  parse: (text) => parseJsonList(text, 'moves'),
  grade: (instance, text, context) =>
    gradeSolvable(
      text,
      context,
      (t) => parseJsonList(t, 'moves'),
      (moves) => validateRiver(instance.data.pairs, instance.data.capacity, moves),
      (moves) => moves.length === 0,
    ),
  simulate: simulateRiver,
  maxOutputTokens: (level) => levelRow('river', RIVER_MAX_TOKENS, level),
};

export const riverTask: AnyTaskPlugin = riverPlugin;
