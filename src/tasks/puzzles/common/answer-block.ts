import type { ParseResult } from '../../task.js';

/**
 * Strict extraction of the final answer block `name = <JSON value>` from a model response.
 *
 * Rules (shared by every family whose template asks for such a block):
 * - an assignment is `name` (not preceded by an identifier character), optional spaces, then `=` or `:`; after
 *   it, whitespace and an optional Markdown fence opener (```` ``` ```` or ```` ```json ````) may precede the value;
 * - the answer is the LAST assignment whose value starts with `[` or `{`; earlier ones (drafts, echoes of the
 *   format) and later prose such as "moves: 7" are ignored;
 * - the value ends at its matching bracket (strings and escapes respected) and must be strict JSON
 *   (double quotes, no trailing commas, no comments).
 * Every step is a single left-to-right or right-to-left pass: linear in the text length, never throws.
 */
export function extractAssignedJson(text: string, name: string): ParseResult<unknown> {
  const open = findLastAssignedValue(text, name);
  return readJsonAt(text, open, name);
}

/** Where the last assigned value (as `extractAssignedJson` reads it) opens and ends; null when it does not close. */
export function locateAssignedJson(text: string, name: string): { open: number; end: number } | null {
  const open = findLastAssignedValue(text, name);
  if (open < 0) return null;
  const close = matchingBracket(text, open);
  return close < 0 ? null : { open, end: close + 1 };
}

function readJsonAt(text: string, open: number, name: string): ParseResult<unknown> {
  if (open === NO_ASSIGNMENT) return { ok: false, reason: `no answer block: expected a final line \`${name} = ...\`` };
  if (open === NO_VALUE) {
    return { ok: false, reason: `malformed answer: \`${name} =\` is not followed by a JSON list or object` };
  }
  const end = matchingBracket(text, open);
  if (end < 0) return { ok: false, reason: `malformed answer: the \`${name}\` value is never closed (incomplete)` };
  try {
    return { ok: true, value: JSON.parse(text.slice(open, end + 1)) as unknown };
  } catch {
    return { ok: false, reason: `malformed answer: the \`${name}\` value is not valid JSON` };
  }
}

const NO_ASSIGNMENT = -1;
const NO_VALUE = -2;

const isIdentChar = (code: number): boolean =>
  (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;

const isSpace = (ch: string | undefined): boolean =>
  ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || ch === '\f' || ch === '\v';

/**
 * Index of the opening bracket of the last `name =` / `name:` whose value starts with `[` or `{`; NO_VALUE when
 * assignments exist but none holds such a value (e.g. only "moves: 7"), NO_ASSIGNMENT when there is none.
 * Each candidate scans only its own whitespace run and at most one short fence opener, so the total is linear.
 */
function findLastAssignedValue(text: string, name: string): number {
  let sawAssignment = false;
  let from = text.length;
  while (from >= 0) {
    const at = text.lastIndexOf(name, from);
    if (at < 0) break;
    from = at - 1;
    if (at > 0 && isIdentChar(text.charCodeAt(at - 1))) continue;
    let i = at + name.length;
    while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++;
    if (text[i] !== '=' && text[i] !== ':') continue;
    sawAssignment = true;
    const open = skipToValue(text, i + 1);
    if (open >= 0 && (text[open] === '[' || text[open] === '{')) return open;
  }
  return sawAssignment ? NO_VALUE : NO_ASSIGNMENT;
}

const MAX_FENCE_OPENER = 20;

/** Skip whitespace and one optional fence opener (```` ``` ```` plus a short language tag); first value index or −1. */
function skipToValue(text: string, i: number): number {
  while (i < text.length && isSpace(text[i])) i++;
  if (text.startsWith('```', i)) {
    const newline = text.slice(i, i + MAX_FENCE_OPENER).indexOf('\n');
    if (newline < 0) return -1;
    i += newline + 1;
    while (i < text.length && isSpace(text[i])) i++;
  }
  return i < text.length ? i : -1;
}

/** Index of the bracket closing the one at `open` (JSON strings respected), or −1 if never closed. */
export function matchingBracket(text: string, open: number): number {
  let depth = 0;
  let inString = false;
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '[' || ch === '{') depth++;
    else if (ch === ']' || ch === '}') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}
