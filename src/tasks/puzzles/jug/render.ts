import { jsonLines } from '../common/index.js';
import type { JugInstance } from './generate.js';
import type { JugOperator } from './rules.js';

export function renderJug(instance: JugInstance): string {
  const { capacityA: a, capacityB: b, goal } = instance.data;
  return [
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
}

/** Each step written as a one-element list holding its operation. */
export const writeSteps = (ops: readonly JugOperator[]): string => jsonLines(ops.map((op) => [op]));
