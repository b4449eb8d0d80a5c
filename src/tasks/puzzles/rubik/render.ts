import { finalLineFormat } from '../common/index.js';
import type { RubikInstance } from './generate.js';

/** One template for every level (complexity-invariant); only the scramble and the facelet string change. */
export function renderRubik({ data }: RubikInstance): string {
  return [
    "A solved 3×3×3 Rubik's Cube was scrambled. Find a sequence of moves that returns it to the solved state.",
    '',
    'Rules and notation (WCA):',
    '- Face turns: U (up), D (down), L (left), R (right), F (front), B (back).',
    '- A letter alone is a 90° clockwise turn of that face as seen looking straight at the face; a prime (e.g. ' +
      "U') is 90° counter-clockwise; a 2 (e.g. U2) is a 180° turn.",
    '- Use face turns only. Any sequence that solves the cube is accepted; it need not be the shortest.',
    '',
    `Scramble applied to the solved cube (${data.scramble.length} moves): ${data.scramble.join(' ')}`,
    'Resulting cube as a 54-character facelet string (faces in the order U, R, F, D, L, B, 9 facelets each, ' +
      'row by row as each face appears in the standard unfolding: U above F, then L F R B in a row, D below ' +
      'F; each letter names the face whose centre has that colour; solved is ' +
      'UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB):',
    data.state,
    '',
    ...finalLineFormat('moves', `["R", "U'", "F2"]`, 'a strict JSON list of move strings, applied in order'),
  ].join('\n');
}

/** The moves as one JSON list of move strings, `["R", "U'", …]`. */
export const writeMoves = (tokens: readonly string[]): string => JSON.stringify(tokens);
