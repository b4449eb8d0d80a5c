import type { PuzzleOutcome } from '../../outcome';
import type { FinishReason, ParseResult } from '../../task';
import { claimsImpossible, collapseOutcome, preParseCollapse } from '../common';

/**
 * The answer-block convention of the sat, crypt, sudoku and rubik templates: the model may reason
 * freely, but its final answer is the body of the LAST `<answer>…</answer>` block (tags matched
 * case-insensitively). Everything outside that block is ignored by the validators.
 */
export const ANSWER_OPEN = '<answer>';
export const ANSWER_CLOSE = '</answer>';

/** The body of the last answer block, or why there is none. Linear time: two index scans. */
export function extractAnswerBody(text: string): ParseResult<string> {
  const lower = text.toLowerCase();
  const open = lower.lastIndexOf(ANSWER_OPEN);
  if (open < 0) return { ok: false, reason: 'no <answer>…</answer> block in the output' };
  const start = open + ANSWER_OPEN.length;
  const close = lower.indexOf(ANSWER_CLOSE, start);
  if (close < 0) return { ok: false, reason: 'the last <answer> block is not closed with </answer>' };
  const body = text.slice(start, close).trim();
  if (body === '') return { ok: false, reason: 'the <answer> block is empty' };
  return { ok: true, value: body };
}

/** Parse the whole output with a family's body parser (the plugin's `parse`). */
export function parseAnswer<P>(text: string, parseBody: (body: string) => ParseResult<P>): ParseResult<P> {
  const body = extractAnswerBody(text);
  if (!body.ok) return body;
  return parseBody(body.value);
}

export type Prelude<P> = { kind: 'parsed'; value: P } | { kind: 'collapsed'; outcome: PuzzleOutcome };

/**
 * Everything before validation, in order: empty / cut off / degenerate (preParseCollapse); an
 * "impossible" claim inside the answer block, or in a text that has no usable block; no block; a
 * body that does not parse into the family's structure. Each of these is a `collapse`.
 */
export function gradePrelude<P>(
  text: string,
  finishReason: FinishReason | undefined,
  parseBody: (body: string) => ParseResult<P>,
): Prelude<P> {
  const early = preParseCollapse(text, finishReason);
  if (early !== null) return { kind: 'collapsed', outcome: collapseOutcome([early]) };
  const body = extractAnswerBody(text);
  if (claimsImpossible(body.ok ? body.value : text)) {
    return {
      kind: 'collapsed',
      outcome: collapseOutcome(['the answer claims the instance is impossible, but it is solvable']),
    };
  }
  if (!body.ok) return { kind: 'collapsed', outcome: collapseOutcome([body.reason]) };
  const parsed = parseBody(body.value);
  if (!parsed.ok) return { kind: 'collapsed', outcome: collapseOutcome([`malformed answer: ${parsed.reason}`]) };
  return { kind: 'parsed', value: parsed.value };
}

/** A JSON object (not array, not null) from text, or why not. JSON.parse is linear and never hangs. */
export function parseJsonObject(body: string): ParseResult<Record<string, unknown>> {
  let value: unknown;
  try {
    value = JSON.parse(stripCodeFence(body));
  } catch {
    return { ok: false, reason: 'the answer is not valid JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, reason: 'the answer is not a JSON object' };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

/** Remove one surrounding Markdown code fence (```json … ```), a common harmless wrapper. */
export function stripCodeFence(body: string): string {
  const trimmed = body.trim();
  if (!trimmed.startsWith('```') || !trimmed.endsWith('```') || trimmed.length < 6) return trimmed;
  const firstNewline = trimmed.indexOf('\n');
  if (firstNewline < 0) return trimmed.slice(3, -3).trim();
  return trimmed.slice(firstNewline + 1, -3).trim();
}

/** Rules every template shares about where the answer goes. */
export const ANSWER_BLOCK_RULE =
  'You may reason step by step first. End your response with exactly one final answer block of the form ' +
  '<answer>…</answer>; only the last such block is graded, and it must contain nothing but the answer in the ' +
  'format below.';
