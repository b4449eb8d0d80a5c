/**
 * LaTeX notation around an answer carries no answer: `\[ … \]`, `$$ … $$`, `\( … \)`, `$…$` next to a bracket,
 * and `\left[` / `\right]` are written out, and `\boxed{X}` is an answer block (`ANSWER: X`), so a boxed
 * restatement after the ANSWER block is the last answer in every family. Every family grades the text this
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

/** The text with LaTeX math delimiters around answers written out (each becomes spaces). */
export function plainNotation(text: string): string {
  if (!text.includes('\\') && !text.includes('$')) return text;
  return unbox(text).replace(DISPLAY, (m) => ' '.repeat(m.length));
}
