import type { CheckersInstance } from './generate.js';

const spaced = (board: string): string => board.split('').join(' ');

export function renderCheckers(instance: CheckersInstance): string {
  const { checkersPerColour: n, cells } = instance.data;
  return [
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
}
