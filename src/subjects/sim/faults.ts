import type { PyRandom } from '../../rng/index.js';
import { CHARS_PER_TOKEN } from '../usage-estimate.js';

export interface FaultRates {
  /** Probability that the output is unparseable prose instead of the required format. */
  format: number;
  /** Probability that the output is cut off part-way (finish_reason 'length'). */
  trunc: number;
}

export interface SimOutput {
  text: string;
  finishReason: 'stop' | 'length';
}

/**
 * Prose with no digits, brackets, colons or keywords: no family's parser should find an answer in it.
 * The subject checks each candidate with the task's own parser and uses the first that fails to parse.
 */
export const UNPARSEABLE_PROSE = [
  'Let me think about this step by step. I will carry the state forward carefully and report the result once I am sure of it.',
  'I am not able to determine the final result with confidence, so I will describe my approach instead of giving an answer.',
  'This requires careful tracking of every operation. Working through it in my head, the details become hard to keep straight.',
] as const;

/**
 * Applies the format and truncation faults, then the output budget. Always draws the same four numbers
 * from `rng`, so the fault stream is fixed per trial whatever the rates are (a trial faulted at rate r is
 * faulted at every rate above r).
 */
export function applyFaults(
  text: string,
  rng: PyRandom,
  rates: FaultRates,
  parses: (text: string) => boolean,
  maxOutputTokens: number,
): SimOutput {
  const formatDraw = rng.random();
  const truncDraw = rng.random();
  const cutFraction = rng.uniform(0.1, 0.9);
  const proseStart = rng.randbelow(UNPARSEABLE_PROSE.length);
  let output: SimOutput = { text, finishReason: 'stop' };
  if (formatDraw < rates.format) {
    output = { text: pickUnparseable(proseStart, parses), finishReason: 'stop' };
  } else if (truncDraw < rates.trunc) {
    output = { text: text.slice(0, Math.floor(text.length * cutFraction)), finishReason: 'length' };
  }
  const maxChars = maxOutputTokens * CHARS_PER_TOKEN;
  if (output.text.length > maxChars) output = { text: output.text.slice(0, maxChars), finishReason: 'length' };
  return output;
}

function pickUnparseable(start: number, parses: (text: string) => boolean): string {
  for (let i = 0; i < UNPARSEABLE_PROSE.length; i++) {
    const candidate = UNPARSEABLE_PROSE[(start + i) % UNPARSEABLE_PROSE.length];
    if (!parses(candidate)) return candidate;
  }
  // Every candidate parsed under this task's parser: a blank answer is the one text no parser accepts.
  return '';
}
