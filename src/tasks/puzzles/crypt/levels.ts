/** docs/spec/puzzles.md §1.2: cryptarithm levels (addends, word length, distinct letters), unique solution only. */
export interface CryptLevel {
  /** Candidate numbers of addends; one is drawn per instance (L6: 3 or 4). */
  addendCounts: readonly number[];
  wordLength: number;
  minLetters: number;
  maxLetters: number;
}

export const CRYPT_LEVELS: readonly CryptLevel[] = [
  { addendCounts: [2], wordLength: 3, minLetters: 1, maxLetters: 6 },
  { addendCounts: [2], wordLength: 4, minLetters: 6, maxLetters: 7 },
  { addendCounts: [2], wordLength: 5, minLetters: 7, maxLetters: 8 },
  { addendCounts: [2], wordLength: 6, minLetters: 8, maxLetters: 9 },
  { addendCounts: [3], wordLength: 5, minLetters: 8, maxLetters: 9 },
  { addendCounts: [3, 4], wordLength: 6, minLetters: 10, maxLetters: 10 },
];

export function cryptLevel(level: number): CryptLevel {
  const row = CRYPT_LEVELS[level - 1];
  if (!Number.isInteger(level) || row === undefined) {
    throw new RangeError(`crypt: level ${level} is not defined; use an integer level 1–6`);
  }
  return row;
}
