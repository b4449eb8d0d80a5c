import type { FinishReason } from '../../task.js';

const IMPOSSIBLE =
  /\b(?:no (?:valid |possible |legal )?solution|impossible|unsolvable|not solvable|cannot be solved|can't be solved|has no solution|unsatisfiable|UNSAT)\b/i;

/** True when the text declares the instance impossible (collapse for an instance known to be solvable). */
export const claimsImpossible = (text: string): boolean => IMPOSSIBLE.test(text);

/**
 * Degenerate repetition: the tail of the output is one unit of 1–200 characters repeated at least
 * `minRepeats` times back to back (a looping generation). Runs in O(window · 200).
 */
export function isDegenerateRepetition(text: string, minRepeats = 8): boolean {
  const tail = text.slice(-4000).trimEnd();
  for (let period = 1; period <= 200; period++) {
    if (period * minRepeats > tail.length) break;
    let repeated = 0;
    for (let i = tail.length - 1 - period; i >= 0; i--) {
      if (tail.charCodeAt(i) !== tail.charCodeAt(i + period)) break;
      repeated++;
    }
    if (repeated + period >= period * minRepeats && /\S/.test(tail.slice(-period))) return true;
  }
  return false;
}

/**
 * Collapse reasons that can be decided before parsing; `null` when the text deserves a parse.
 * Order: empty → cut off by the token limit → degenerate repetition.
 */
export function preParseCollapse(text: string, finishReason: FinishReason | undefined): string | null {
  if (text.trim() === '') return 'empty answer';
  if (finishReason === 'length') return 'cut off by the token limit (finish_reason=length)';
  if (isDegenerateRepetition(text)) return 'degenerate repetition at the end of the output';
  return null;
}
