import type { ParseResult } from '../../task';

/**
 * Strict extraction of the final answer block `name = <JSON value>` from a model response.
 *
 * Rules (shared by every family whose template asks for such a block):
 * - the LAST occurrence of `name` (not preceded by an identifier character) followed by optional spaces and
 *   `=` or `:` is the answer; earlier ones (drafts, echoes of the format) are ignored;
 * - after the `=`, whitespace and an optional Markdown fence opener (```` ``` ```` or ```` ```json ````) may
 *   precede the value, which must start with `[` or `{`;
 * - the value ends at its matching bracket (strings and escapes respected) and must be strict JSON
 *   (double quotes, no trailing commas, no comments).
 * Every step is a single left-to-right or right-to-left pass: linear in the text length, never throws.
 */
export function extractAssignedJson(text: string, name: string): ParseResult<unknown> {
  const start = findLastAssignment(text, name);
  if (start < 0) return { ok: false, reason: `no answer block: expected a final line \`${name} = ...\`` };
  const open = skipToValue(text, start);
  if (open < 0 || (text[open] !== '[' && text[open] !== '{')) {
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

const isIdentChar = (code: number): boolean =>
  (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;

const isSpace = (ch: string | undefined): boolean =>
  ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || ch === '\f' || ch === '\v';

/** Index just after `=`/`:` of the last `name =` in the text, or −1. */
function findLastAssignment(text: string, name: string): number {
  let from = text.length;
  while (from >= 0) {
    const at = text.lastIndexOf(name, from);
    if (at < 0) return -1;
    from = at - 1;
    if (at > 0 && isIdentChar(text.charCodeAt(at - 1))) continue;
    let i = at + name.length;
    // Spaces/tabs only (bounded by the next occurrence scanned earlier, so the total work stays linear).
    while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++;
    if (text[i] === '=' || text[i] === ':') return i + 1;
  }
  return -1;
}

/** Skip whitespace and one optional fence opener; index of the first value character or −1. */
function skipToValue(text: string, i: number): number {
  while (i < text.length && isSpace(text[i])) i++;
  if (text.startsWith('```', i)) {
    const newline = text.indexOf('\n', i);
    if (newline < 0) return -1;
    i = newline + 1;
    while (i < text.length && isSpace(text[i])) i++;
  }
  return i < text.length ? i : -1;
}

/** Index of the bracket closing the one at `open` (JSON strings respected), or −1 if never closed. */
function matchingBracket(text: string, open: number): number {
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
