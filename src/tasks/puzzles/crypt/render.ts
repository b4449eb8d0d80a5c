import { finalLineFormat } from '../common/index.js';
import type { CryptInstance } from './generate.js';

/** One template for every level (complexity-invariant); only the equation changes. */
export function renderCrypt({ data }: CryptInstance): string {
  return [
    'Solve the cryptarithm below: replace every letter by a digit so that the addition is correct.',
    '',
    'Rules:',
    '- Each letter stands for exactly one digit 0–9, and different letters stand for different digits.',
    '- No number starts with the digit 0 (the first letter of every word, including the result, is not 0).',
    '- The sum of the numbers on the left of "=" must equal the number on the right, in base 10.',
    '',
    `Puzzle: ${data.equation}`,
    `Letters (${data.letters.length}): ${data.letters.join(', ')}`,
    '',
    ...finalLineFormat(
      'mapping',
      '{"A": 1, "B": 2, "C": 3}',
      'a strict JSON object mapping every letter of the puzzle (upper case, as a string key) to its digit (a JSON ' +
        'integer)',
    ),
  ].join('\n');
}

/** The mapping on one line, letters in alphabetical order: `{"A": 1, "B": 2, …}`. */
export const writeMapping = (mapping: Readonly<Record<string, number>>): string =>
  `{${Object.keys(mapping)
    .sort()
    .map((letter) => `"${letter}": ${mapping[letter]}`)
    .join(', ')}}`;
