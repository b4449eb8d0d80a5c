import { echo, listBounded } from '../../echo.js';
import type { PuzzleOutcome } from '../../outcome.js';
import type { ParseResult } from '../../task.js';
import { failOutcome, passOutcome } from '../common/index.js';

/** The raw mapping: keys as written, values as parsed JSON (both checked by the validator). */
export interface CryptAnswer {
  entries: [string, unknown][];
}

/** The `mapping = {...}` object as its entries; never fails once the object parsed. */
export const readMapping = (object: Record<string, unknown>): ParseResult<CryptAnswer> => ({
  ok: true,
  value: { entries: Object.entries(object) },
});

const shorten = (text: string): string => (text.length > 24 ? `${text.slice(0, 21)}...` : text);
const isDigit = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 9;

/**
 * The validator of docs/spec/puzzles.md §6, collecting every issue instead of returning at the first: (1) keys are letters and
 * values integers 0–9; (2) every letter of the equation is mapped; (3) no digit is used twice (over the
 * whole mapping, extra letters included); (4) no word starts with 0; (5) the decoded sum is exact (checked
 * only when every letter has a valid digit). Extra letters are tolerated. kStar is −1:
 * a mapping has no order.
 */
export function validateCrypt(addends: readonly string[], result: string, answer: CryptAnswer): PuzzleOutcome {
  const badEntries: string[] = [];
  const digitOf = new Map<string, number>();
  for (const [key, value] of answer.entries) {
    if (!/^[A-Za-z]+$/.test(key)) badEntries.push(`key '${shorten(key)}' is not a letter`);
    else if (!isDigit(value))
      badEntries.push(`${shorten(key)} → ${shorten(JSON.stringify(value) ?? 'undefined')} is not an integer 0–9`);
    else digitOf.set(key, value);
  }
  // a mapping can have any number of keys: the first bad entries are listed, the rest counted
  const issues = listBounded(badEntries, 'bad entries');
  const words = [...addends, result];
  const letters = [...new Set(words.join(''))].sort();
  const missing = letters.filter((letter) => !answer.entries.some(([key]) => key === letter));
  if (missing.length > 0) issues.push(`letters without a digit: ${missing.join(', ')}`);
  const byDigit = new Map<number, string[]>();
  for (const [letter, digit] of digitOf) byDigit.set(digit, [...(byDigit.get(digit) ?? []), letter]);
  for (const [digit, owners] of [...byDigit].sort((a, b) => a[0] - b[0])) {
    if (owners.length > 1) issues.push(`repeated digit ${digit}: used by ${echo(owners.map(shorten).join(', '))}`);
  }
  for (const word of words) {
    if (digitOf.get(word[0]) === 0) issues.push(`leading zero: ${word} starts with ${word[0]} = 0`);
  }
  if (letters.every((letter) => digitOf.has(letter))) {
    const decode = (word: string): number => Number([...word].map((letter) => digitOf.get(letter)).join(''));
    const total = addends.reduce((sum, word) => sum + decode(word), 0);
    if (total !== decode(result)) {
      issues.push(
        `wrong sum: ${addends.map(decode).join(' + ')} = ${total}, but ${result} decodes to ${decode(result)}`,
      );
    }
  }
  return issues.length === 0 ? passOutcome() : failOutcome(issues);
}
