import type { ParseResult } from '../../task.js';
import { extractAssignedJson } from './answer-block.js';

/**
 * The final answer block a puzzle's prompt asks for, `name = <JSON list or object>`, and how it is read into
 * the answer the family's validator checks.
 */
export interface AnswerFormat<Answer> {
  /** The block name (`moves`, `coloring`, …); canonical and simulated responses end with `name = <answer>`. */
  readonly name: string;
  parse(text: string): ParseResult<Answer>;
  /** An answer with nothing in it (`moves = []`): next to an impossibility claim it counts as no answer. */
  isEmpty(answer: Answer): boolean;
}

/** Parse `name = [ ... ]` into the list of raw entries; entries are checked one by one by the validator. */
export function parseJsonList(text: string, name: string): ParseResult<unknown[]> {
  const block = extractAssignedJson(text, name);
  if (!block.ok) return block;
  if (!Array.isArray(block.value)) return { ok: false, reason: `malformed answer: \`${name}\` must be a JSON list` };
  return { ok: true, value: block.value };
}

/** Parse `name = { ... }` into a plain JSON object (keys are strings; values are checked by the validator). */
export function parseJsonObject(text: string, name: string): ParseResult<Record<string, unknown>> {
  const block = extractAssignedJson(text, name);
  if (!block.ok) return block;
  const value = block.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, reason: `malformed answer: \`${name}\` must be a JSON object` };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

/** `name = [ ... ]`, read as its raw entries. */
export const listAnswer = (name: string): AnswerFormat<unknown[]> => ({
  name,
  parse: (text) => parseJsonList(text, name),
  isEmpty: (entries) => entries.length === 0,
});

/** `name = { ... }`, read as its raw key/value object. */
export const objectAnswer = (name: string): AnswerFormat<Record<string, unknown>> => ({
  name,
  parse: (text) => parseJsonObject(text, name),
  isEmpty: (object) => Object.keys(object).length === 0,
});

/** A format whose raw list or object is read one step further into the family's own answer type. */
export const readAnswer = <Raw, Answer>(
  raw: AnswerFormat<Raw>,
  read: (value: Raw) => ParseResult<Answer>,
  isEmpty: (answer: Answer) => boolean,
): AnswerFormat<Answer> => ({
  name: raw.name,
  parse(text) {
    const parsed = raw.parse(text);
    return parsed.ok ? read(parsed.value) : parsed;
  },
  isEmpty,
});
