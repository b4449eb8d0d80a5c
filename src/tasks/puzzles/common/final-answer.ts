import { type Finality, finalityOf } from '../../finality.js';
import type { FinishReason } from '../../task.js';
import { locateAssignedJson, matchingBracket } from './answer-block.js';

/**
 * The puzzle's final answer: the last `name = <JSON>` block, unless the model restates its answer after it as a
 * plain JSON value of the same shape (`Final answer:` then a list, or a list alone at the start of a line, or a
 * boxed one), or as a plain list of one entry per line (`[1, "A", "C"]` lines, bulleted or numbered, or bare
 * rows such as sudoku's `2143`): the last restatement replaces the block, so a visible draft never wins over
 * the model's final answer. Then what follows the answer decides whether it is final (src/tasks/finality.ts).
 * Linear in the text length.
 */
export interface PuzzleFinalAnswer {
  /** The text the family's answer format parses: the response, or `name = <restated value>`. */
  text: string;
  finality: Finality;
  /** The block was replaced by a later restatement. */
  restated: boolean;
}

/** A line that may open a restated answer: optional bullet or quote, up to two answer labels (`Final answer: ANSWER:`, a
 * boxed one), or none, then `[`/`{`. Labels are bounded, so each line costs a bounded amount of backtracking. */
const RESTATEMENT =
  /^[ \t]*(?:[-*>][ \t]*)?(?:(?:\*\*)?[^\n:=[{]{0,60}\b(?:answer|solution|moves|move list|corrected|revised)\b[^\n:=[{]{0,60}(?:\*\*)?[ \t]*[:=][ \t]*(?:\*\*)?[ \t]*){0,2}(?=[[{])/gim;

/** The shape a restatement must share with the block: list of lists, list of objects, list of scalars, object. */
function shapeOf(value: unknown): string {
  if (!Array.isArray(value)) return typeof value === 'object' && value !== null ? 'object' : 'scalar';
  const first = value[0];
  return `list:${Array.isArray(first) ? 'list' : first === undefined ? 'empty' : typeof first}`;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** One entry of a plain list: optional bullet or number, a JSON value or a bare word, an optional comma. */
const LIST_LINE = /^[ \t]*(?:[-*•]|\d+[.)])?[ \t]*(\[[^\n]*\]|\{[^\n]*\}|"[^"\n]*"|[0-9]+)[ \t]*,?[ \t]*$/;

/**
 * The last plain list after `from`: a run of at least two lines that are each one entry (LIST_LINE), read as
 * a JSON list of the block's shape; null when there is none. A bare row of digits is a string entry (sudoku rows).
 */
function lastPlainList(text: string, from: number, shape: string): { open: number; end: number; json: string } | null {
  let found: { open: number; end: number; json: string } | null = null;
  let run: Array<{ start: number; end: number; entry: string }> = [];
  const close = () => {
    if (run.length >= 2) {
      const entries = run.map((r) => (/^[[{"]/.test(r.entry) ? r.entry : JSON.stringify(r.entry)));
      const json = `[${entries.join(',')}]`;
      const value = parseJson(json);
      if (value.ok && shapeOf(value.value) === shape)
        found = { open: run[0].start, end: run[run.length - 1].end, json };
    }
    run = [];
  };
  let lineStart = text.indexOf('\n', from) + 1;
  if (lineStart === 0) return null;
  while (lineStart < text.length) {
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline < 0 ? text.length : newline;
    const m = LIST_LINE.exec(text.slice(lineStart, lineEnd));
    if (m !== null) run.push({ start: lineStart, end: lineEnd, entry: m[1] });
    else close();
    lineStart = lineEnd + 1;
  }
  close();
  return found;
}

/** Every `name = <value>` block's JSON text, in order (a draft, a correction, an alternative). */
function assignedValues(text: string, name: string): string[] {
  const values: string[] = [];
  const pattern = new RegExp(`(?<![A-Za-z0-9_])${name}[ \\t]*[=:][ \\t\\n]*(?:\`\`\`[a-z]*\\s*)?(?=[[{])`, 'g');
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    const open = m.index + m[0].length;
    const close = matchingBracket(text, open);
    if (close < 0) continue;
    values.push(text.slice(open, close + 1).replace(/\s+/g, ''));
    pattern.lastIndex = close + 1;
  }
  return values;
}

export function finalPuzzleAnswer(
  text: string,
  name: string,
  finishReason: FinishReason | undefined,
): PuzzleFinalAnswer {
  const block = locateAssignedJson(text, name);
  if (block === null) return { text, finality: { kind: 'final' }, restated: false };
  const blockValue = parseJson(text.slice(block.open, block.end));
  let answer = { open: block.open, end: block.end };
  let plain: string | null = null;
  if (blockValue.ok) {
    const shape = shapeOf(blockValue.value);
    RESTATEMENT.lastIndex = block.end;
    for (let m = RESTATEMENT.exec(text); m !== null; m = RESTATEMENT.exec(text)) {
      const open = m.index + m[0].length;
      const close = matchingBracket(text, open);
      if (close < 0) {
        RESTATEMENT.lastIndex = open + 1;
        continue;
      }
      const value = parseJson(text.slice(open, close + 1));
      if (value.ok && shapeOf(value.value) === shape) answer = { open, end: close + 1 };
      RESTATEMENT.lastIndex = close + 1;
    }
    const list = lastPlainList(text, answer.end, shape);
    if (list !== null) {
      answer = { open: list.open, end: list.end };
      plain = list.json;
    }
  }
  const answerText = plain ?? text.slice(answer.open, answer.end);
  const earlier = assignedValues(text.slice(0, answer.open), name);
  const finality = finalityOf(
    text,
    {
      end: answer.end,
      delimited: true,
      answers: earlier.length + 1,
      differsFromEarlier: earlier.some((v) => v !== answerText.replace(/\s+/g, '')),
    },
    finishReason,
  );
  if (answer.open === block.open) return { text, finality, restated: false };
  return { text: `${name} = ${answerText}`, finality, restated: true };
}
