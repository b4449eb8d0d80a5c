import type { ParseResult, PuzzleOutcome, SimKnobs, TaskInstance, TaskPlugin } from '../../src/index.js';
import type { PyRandom } from '../../src/rng/index.js';
import { stepwiseSim } from '../../src/tasks/task.js';

/**
 * A task family that exists only in this folder: a walk on the integers. Start at 0, take N moves of ±1…±5;
 * the answer is every position in order and the final one. It proves a family is a declaration: nothing
 * outside test/fixture-family names it, yet it sweeps, fits, gates and reports like a shipped family.
 *
 * It grades into the `puzzle` outcome record (pass / fail / collapse) and asks for the `retention` analysis
 * over a depth axis: the outcome record and the analysis are independent declarations.
 */
export interface ZigzagData {
  moves: number[];
}
export type ZigzagInstance = TaskInstance<ZigzagData, number, number>;

interface ZigzagReading {
  positions: number[];
  final: number;
}

const positionsOf = (moves: readonly number[]): number[] => {
  let at = 0;
  return moves.map((move) => {
    at += move;
    return at;
  });
};

const responseText = (positions: readonly number[], final: number) =>
  `POSITIONS: ${positions.join(' ')}\nFINAL: ${final}`;

function readZigzag(text: string): ParseResult<ZigzagReading> {
  let positions: number[] | undefined;
  let final: number | undefined;
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed.startsWith('POSITIONS:')) {
      const fields = trimmed.slice('POSITIONS:'.length).trim().split(/\s+/).filter(Boolean);
      positions = fields.every((f) => /^-?\d{1,6}$/.test(f)) ? fields.map(Number) : undefined;
    } else if (/^FINAL:\s*-?\d{1,6}$/.test(trimmed)) {
      final = Number(trimmed.slice('FINAL:'.length));
    }
  }
  if (final === undefined) return { ok: false, reason: 'no FINAL line' };
  return { ok: true, value: { positions: positions ?? [], final } };
}

const outcome = (kind: PuzzleOutcome['kind'], kStar: number, tfbc: boolean, issues: string[]): PuzzleOutcome => ({
  family: 'puzzle',
  kind,
  kStar,
  tfbc,
  issues,
});

export const zigzagTask: TaskPlugin<ZigzagInstance, ZigzagReading> = {
  id: 'zigzag',
  family: 'puzzle',
  project: 'zigzag',
  analysis: 'retention',
  simDefault: stepwiseSim(0.9),
  title: 'Zigzag walk (a fixture family defined in test/)',
  levels: { kind: 'depth', values: [2, 4, 8, 16] },
  variants: ['plain'],
  profiles: ['default'],
  generate(rng: PyRandom, level: number, options) {
    const moves = Array.from({ length: level }, () => (rng.random() < 0.5 ? -1 : 1) * rng.randint(1, 5));
    const trace = positionsOf(moves);
    return {
      task: 'zigzag',
      level,
      seed: options.seed,
      profile: 'default',
      data: { moves },
      trace,
      answer: trace[trace.length - 1] ?? 0,
    };
  },
  instanceKey: (instance) => instance.data.moves.join(','),
  render: (instance) => ({
    system: 'You track a position on the number line.',
    user: `Start at 0. Moves: ${instance.data.moves.join(', ')}. Reply with a line "POSITIONS: p1 p2 …" and a line "FINAL: p".`,
  }),
  canonicalResponse: (instance) => responseText(instance.trace, instance.answer),
  parse: readZigzag,
  grade(instance, text, context) {
    const reading = readZigzag(text);
    if (!reading.ok) {
      const cut = context?.finishReason === 'length' ? ['cut off (finish_reason length)'] : [];
      return outcome('collapse', -1, false, [...cut, reading.reason]);
    }
    const { positions, final } = reading.value;
    const wrong = instance.trace.findIndex((p, i) => positions[i] !== p);
    const finalRight = final === instance.answer;
    if (wrong === -1 && finalRight) return outcome('pass', -1, false, []);
    const kStar = wrong === -1 ? -1 : wrong + 1;
    return outcome('fail', kStar, finalRight && wrong !== -1, [
      finalRight ? `position ${kStar} is wrong` : `final ${final}, expected ${instance.answer}`,
    ]);
  },
  simulate(instance, rng, knobs: SimKnobs) {
    // each move is carried right with probability p; a slip adds 1 and stays (so P(pass | N) = p^N)
    let offset = 0;
    const positions = instance.trace.map((p) => {
      if (rng.random() >= knobs.retention) offset += 1;
      return p + offset;
    });
    return responseText(positions, positions[positions.length - 1] ?? 0);
  },
  maxOutputTokens: (level) => 64 + 8 * level,
};
