/**
 * Bounds for model text echoed into a trial's `issues`. An answer is untrusted and unbounded (a 1 MB bracketed
 * answer once made an 8.5 MB report): a grader quotes at most `ECHO_MAX` characters of it, lists at most
 * `LIST_MAX` items of a per-step or per-token kind, and every graded outcome passes `boundIssues` on its way
 * out of the registry (src/tasks/final-answer.ts), the backstop for a plugin that quotes too much.
 */

/** Characters of a model's text quoted in one issue. */
export const ECHO_MAX = 200;

/** Items of one kind (steps, move tokens, keys) listed before the rest are only counted. */
export const LIST_MAX = 20;

/** Characters of one issue, and of a provider's error message in an `api` outcome. */
export const ISSUE_MAX = 1_000;

/** Characters of all the issues of one outcome together. */
export const ISSUES_BUDGET = 16_000;

const marker = (cut: number): string => ` … [${cut} chars cut] … `;

const isHigh = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/**
 * `text` when it has at most `max` characters; otherwise its head and tail around a marker that says how much
 * was cut (`… [123456 chars cut] …`), `max` characters in all — or the marker alone when `max` is smaller
 * than the marker. A surrogate pair is never split at either cut.
 */
export function bounded(text: string, max: number): string {
  if (text.length <= max) return text;
  // the marker's width depends on the count it shows: sized for the whole text first, then for what is cut
  const widest = marker(text.length).length;
  let keep = Math.max(0, (Number.isFinite(max) ? Math.floor(max) : 0) - widest);
  if (keep > 0) keep += widest - marker(text.length - keep).length;
  let headEnd = Math.ceil(keep / 2);
  let tailStart = text.length - (keep - headEnd);
  if (headEnd > 0 && isHigh(text.charCodeAt(headEnd - 1))) headEnd--;
  if (tailStart < text.length && isLow(text.charCodeAt(tailStart))) tailStart++;
  return `${text.slice(0, headEnd)}${marker(tailStart - headEnd)}${text.slice(tailStart)}`;
}

/** A fragment of the model's text, as quoted in an issue: at most `ECHO_MAX` characters. */
export const echo = (text: string, max = ECHO_MAX): string => bounded(text, max);

/** The first `max` items, then one line counting the rest (`… and 1234 more <what>`). */
export function listBounded(items: readonly string[], what: string, max = LIST_MAX): string[] {
  return items.length <= max ? [...items] : [...items.slice(0, max), `… and ${items.length - max} more ${what}`];
}

/**
 * An outcome's issues within bounds: each at most `ISSUE_MAX` characters, all together at most about
 * `ISSUES_BUDGET`; the issues past the budget are dropped and counted in a last line. Issues already within
 * bounds come back unchanged (the same array), so a well-behaved grader's outcome keeps its bytes.
 */
export function boundIssues(issues: string[]): string[] {
  let total = 0;
  let fits = true;
  for (const issue of issues) {
    total += issue.length;
    if (issue.length > ISSUE_MAX || total > ISSUES_BUDGET) fits = false;
  }
  if (fits) return issues;
  const kept: string[] = [];
  let used = 0;
  for (const [i, issue] of issues.entries()) {
    const shown = bounded(issue, ISSUE_MAX);
    if (used + shown.length > ISSUES_BUDGET) {
      kept.push(`… and ${issues.length - i} more issues`);
      break;
    }
    kept.push(shown);
    used += shown.length;
  }
  return kept;
}
