/**
 * LaTeX notation around an answer carries no answer: `\[ … \]`, `$$ … $$`, `\( … \)`, `$…$` next to a bracket,
 * and `\left[` / `\right]` are written out, and `\boxed{X}` is an answer block (`ANSWER: X`), so a boxed
 * restatement after the ANSWER block is the last answer in every family; so is `<answer>X</answer>`. Every family grades the text this
 * returns (src/tasks/final-answer.ts). Pure and linear in the text length.
 */

const DISPLAY = /\\\[|\\\]|\\\(|\\\)|\$\$|\\left(?=\s*[[({])|\\right(?=\s*[\])}])|\$(?=\s*[[{])|(?<=[\]}]\s*)\$/g;
const BOXED = '\\boxed{';

/** `\boxed{X}` → `ANSWER: X` (its matching brace dropped; an unclosed box keeps the rest of the text). */
function unbox(text: string): string {
  let at = text.indexOf(BOXED);
  if (at < 0) return text;
  const out: string[] = [];
  let from = 0;
  while (at >= 0) {
    out.push(text.slice(from, at), 'ANSWER: ');
    let depth = 1;
    let i = at + BOXED.length;
    const start = i;
    for (; i < text.length && depth > 0; i++) {
      if (text[i] === '{') depth++;
      else if (text[i] === '}') depth--;
    }
    if (depth > 0) {
      out.push(text.slice(start));
      return out.join('');
    }
    out.push(text.slice(start, i - 1), ' ');
    from = i;
    at = text.indexOf(BOXED, from);
  }
  out.push(text.slice(from));
  return out.join('');
}

/** `<answer>X</answer>` (the R1-Zero-style template's answer tags) → `ANSWER: X`: an answer block in every family. */
const ANSWER_TAGS = /<answer\s*>|<\/answer\s*>/gi;

/** The text with LaTeX math delimiters around answers written out (each becomes spaces), answer tags as blocks. */
export function plainNotation(text: string): string {
  const tagged = text.includes('<') ? text.replace(ANSWER_TAGS, (m) => (m[1] === '/' ? ' ' : 'ANSWER: ')) : text;
  if (!tagged.includes('\\') && !tagged.includes('$')) return tagged;
  return unbox(tagged).replace(DISPLAY, (m) => ' '.repeat(m.length));
}
