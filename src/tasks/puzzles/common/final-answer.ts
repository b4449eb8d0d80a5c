import { type Finality, finalityOf } from '../../finality.js';
import type { FinishReason } from '../../task.js';
import { locateAssignedJson, matchingBracket } from './answer-block.js';

/**
 * The puzzle's final answer: the last `name = <JSON>` block, unless the model restates its answer after it as a
 * plain JSON value of the same shape (`Final answer:` then a list, or a list alone at the start of a line, or a
 * boxed one): the last restatement replaces the block. Then what follows the answer decides whether it is final
 * (src/tasks/finality.ts). Linear in the text length.
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

export function finalPuzzleAnswer(
  text: string,
  name: string,
  finishReason: FinishReason | undefined,
): PuzzleFinalAnswer {
  const block = locateAssignedJson(text, name);
  if (block === null) return { text, finality: { kind: 'final' }, restated: false };
  const blockValue = parseJson(text.slice(block.open, block.end));
  let answer = { open: block.open, end: block.end };
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
  }
  const finality = finalityOf(text, { end: answer.end, delimited: true }, finishReason);
  if (answer.open === block.open) return { text, finality, restated: false };
  return { text: `${name} = ${text.slice(answer.open, answer.end)}`, finality, restated: true };
}
