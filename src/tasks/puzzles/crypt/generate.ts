import type { PyRandom } from '../../../rng/index.js';
import { countSolutions } from './counter.js';
import type { CryptLevel } from './levels.js';

export interface CryptData {
  addends: string[];
  result: string;
  /** `A + B = C` as shown in the prompt. */
  equation: string;
  /** The distinct letters, sorted. */
  letters: string[];
  /** The unique solution (letter → digit). */
  solution: Record<string, number>;
  addendCount: number;
  wordLength: number;
  distinctLetters: number;
  /** Drawn equations, including those rejected for their letter count or for not being unique. */
  attempts: number;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('');
const MAX_ATTEMPTS = 50_000;

/**
 * docs/spec/puzzles.md §6 recipe: draw the addends (no leading zero), add, encode the distinct digits as random
 * distinct letters (in order of first appearance), keep the puzzle iff the distinct-letter count fits the
 * level and the exact counter finds exactly one solution (limit 2).
 */
export function generateCrypt(rng: PyRandom, spec: CryptLevel): CryptData {
  for (let attempts = 1; attempts <= MAX_ATTEMPTS; attempts++) {
    const addendCount = rng.choice(spec.addendCounts);
    const low = 10 ** (spec.wordLength - 1);
    const numbers = Array.from({ length: addendCount }, () => rng.randint(low, 10 * low - 1));
    const sum = numbers.reduce((a, b) => a + b, 0);
    const digitWords = [...numbers, sum].map(String);
    const digits = [...new Set(digitWords.join(''))];
    if (digits.length < spec.minLetters || digits.length > spec.maxLetters) continue;
    const letters = rng.sample(ALPHABET, digits.length);
    const letterOf = new Map(digits.map((d, i) => [d, letters[i]]));
    const words = digitWords.map((w) => [...w].map((d) => letterOf.get(d)).join(''));
    const addends = words.slice(0, -1);
    const result = words[words.length - 1];
    const counted = countSolutions({ addends, result }, 2);
    if (counted.count !== 1 || counted.first === null) continue;
    return {
      addends,
      result,
      equation: `${addends.join(' + ')} = ${result}`,
      letters: [...letters].sort(),
      solution: counted.first,
      addendCount,
      wordLength: spec.wordLength,
      distinctLetters: digits.length,
      attempts,
    };
  }
  throw new Error(
    `crypt: no unique puzzle with ${spec.minLetters}–${spec.maxLetters} letters in ${MAX_ATTEMPTS} draws`,
  );
}
