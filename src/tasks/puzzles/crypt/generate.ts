import type { PyRandom } from '../../../rng/index.js';
import type { TaskInstance } from '../../task.js';
import type { PerLevel, PuzzleContent } from '../common/index.js';
import { countSolutions } from './counter.js';

/** A cryptarithm level: addends, word length, distinct letters; unique solution only. */
export interface CryptLevel {
  /** Candidate numbers of addends; one is drawn per instance (L6: 3 or 4). */
  addendCounts: readonly number[];
  wordLength: number;
  minLetters: number;
  maxLetters: number;
}

/** Cryptarithm levels (docs/spec/puzzles.md §1.2). */
export const CRYPT_LEVELS: PerLevel<CryptLevel> = [
  { addendCounts: [2], wordLength: 3, minLetters: 1, maxLetters: 6 },
  { addendCounts: [2], wordLength: 4, minLetters: 6, maxLetters: 7 },
  { addendCounts: [2], wordLength: 5, minLetters: 7, maxLetters: 8 },
  { addendCounts: [2], wordLength: 6, minLetters: 8, maxLetters: 9 },
  { addendCounts: [3], wordLength: 5, minLetters: 8, maxLetters: 9 },
  { addendCounts: [3, 4], wordLength: 6, minLetters: 10, maxLetters: 10 },
];

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

/** `answer`: the unique solution (letter → digit). */
export type CryptInstance = TaskInstance<CryptData, never, Record<string, number>>;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('');
const MAX_ATTEMPTS = 50_000;

/**
 * docs/spec/puzzles.md §6 recipe: draw the addends (no leading zero), add, encode the distinct digits as random
 * distinct letters (in order of first appearance), keep the puzzle iff the distinct-letter count fits the
 * level and the exact counter finds exactly one solution (limit 2).
 */
export function generateCrypt(
  spec: CryptLevel,
  rng: PyRandom,
): PuzzleContent<CryptData, never, Record<string, number>> {
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
    const data: CryptData = {
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
    return { data, answer: data.solution };
  }
  throw new Error(
    `crypt: no unique puzzle with ${spec.minLetters}–${spec.maxLetters} letters in ${MAX_ATTEMPTS} draws`,
  );
}
