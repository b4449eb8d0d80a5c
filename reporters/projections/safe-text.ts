import { bounded } from '../../src/tasks/echo.js';

/**
 * Untrusted text on its way out: model answers, model and subject names, test names and provider messages reach
 * a terminal and summary.md (GitHub renders raw HTML in step summaries). Pure: no Node API.
 */

export { bounded };

/**
 * What a terminal must never receive raw: C0 controls but line feed and tab (ESC introduces every CSI/SGR, OSC
 * and other escape sequence; BEL ends an OSC; CR and BS overwrite what was printed), DEL, the C1 controls
 * U+0080–U+009F (U+009B is an 8-bit CSI), and the bidi embeddings, overrides and isolates U+202A–U+202E,
 * U+2066–U+2069 (they reorder what a reader sees).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

const shown = (char: string): string => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * The text with every unsafe character written out as its `\uXXXX` escape (`\u001b`, `\u0007`, `\u009b`,
 * `\u202e`): a sequence is defused by its introducer, so `ESC[31m` prints as the visible text `\u001b[31m` and
 * nothing is lost. JSON's own escape, so JSON text stays valid JSON of the same value (JSON.stringify escapes C0
 * controls itself and leaves DEL, C1 and bidi characters raw, inside strings only). A backslash already in the
 * text is kept (a literal `\u001b` and an escaped ESC read alike; a Windows path or an answer's LaTeX keeps its
 * bytes).
 */
export const terminalSafe = (text: string): string => text.replace(UNSAFE, shown);

const HTML: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '|': '\\|' };

/**
 * Text for summary.md, inline (a table cell, a list item, a heading): terminalSafe, then `&`, `<`, `>` as HTML
 * entities (no raw HTML reaches the renderer), `|` as `\|` (a table cell stays one cell; outside a table `\|`
 * renders as `|`), and each line break as a space (a break would end the table row or the list item).
 */
export const markdownSafe = (text: string): string =>
  terminalSafe(text)
    .replace(/[&<>|]/g, (char) => HTML[char] ?? char)
    .replace(/\n/g, ' ');

/**
 * A Markdown code span of untrusted text (a subject spec): its content is literal, so only what could end the
 * span or the table row is handled — the fence is a backtick run longer than any in the text, `|` is `\|`
 * (GitHub unescapes it inside a table's code span) and line breaks are spaces; terminalSafe applies too. A text
 * with `<` or `>` is written as markdownSafe text instead, without the span (an entity would show literally
 * inside it): summary.md holds no raw angle bracket of the data anywhere.
 */
export function markdownCode(text: string): string {
  if (/[<>]/.test(text)) return markdownSafe(text);
  const content = terminalSafe(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');
  let longest = 0;
  for (const run of content.matchAll(/`+/g)) longest = Math.max(longest, run[0].length);
  const fence = '`'.repeat(longest + 1);
  // a space on each side when the content starts or ends with a backtick (CommonMark strips one of each)
  const pad = content.startsWith('`') || content.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${content}${pad}${fence}`;
}
