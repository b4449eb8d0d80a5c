import type { HanoiInstance } from './generate.js';

export function renderHanoi(instance: HanoiInstance): string {
  const n = instance.data.disks;
  return [
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
}
