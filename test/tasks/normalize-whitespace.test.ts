import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeWhitespace } from '../../src/tasks/response.js';

/** The rule as first written, one string per line: the reference the faster form must equal. */
function byLines(text: string): string {
  const lines = text
    .replace(/\u200b|\u200c|\u200d|\u2060|\ufeff/g, '')
    .replace(/[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/g, ' ')
    .split(/\r\n|\r|\n/);
  const kept: string[] = [];
  for (const line of lines) {
    const trimmed = line.trimEnd();
    if (trimmed !== '') kept.push(trimmed);
  }
  return kept.join('\n').trim();
}

/** Every code unit JavaScript's `\s` matches, the zero-width ones, and a few that look like a space but are not. */
const SPACE_LIKE = [
  ...'\t\n\v\f\r \u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff\u200b\u200c\u200d\u2060\u180e\u0085',
  ...Array.from({ length: 11 }, (_, i) => String.fromCharCode(0x2000 + i)),
];
const textArb = fc.string({
  unit: fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...SPACE_LIKE) },
    { weight: 2, arbitrary: fc.constantFrom(...'ab1[],:=') },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  ),
  maxLength: 200,
});

describe('normalizeWhitespace', () => {
  it('equals the line-by-line rule on texts dense in line ends, spaces and their look-alikes', () => {
    fc.assert(
      fc.property(textArb, (text) => {
        expect(normalizeWhitespace(text)).toBe(byLines(text));
      }),
      { numRuns: 5000 },
    );
  });

  it('equals it for every UTF-16 code unit at the end, the start and alone on a line', () => {
    for (let code = 0; code <= 0xffff; code++) {
      const c = String.fromCharCode(code);
      for (const text of [`x${c}`, `${c}x`, `x\n${c}\ny`, `x${c}\r\n${c}y ${c}`]) {
        if (normalizeWhitespace(text) !== byLines(text))
          expect(normalizeWhitespace(text), `U+${code.toString(16)}`).toBe(byLines(text));
      }
    }
  });

  it('keeps a text that needs no change as it is, and drops blank lines and trailing spaces', () => {
    expect(normalizeWhitespace('a\nb\nc')).toBe('a\nb\nc');
    expect(normalizeWhitespace('  a \r\n\r\n\tb\u00a0\u2028\n\n\rc  ')).toBe('a\n\tb\nc');
  });
});
