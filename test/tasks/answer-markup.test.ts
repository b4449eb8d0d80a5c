import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeCompatibility, stripMarkupComments } from '../../src/tasks/answer-markup.js';
import { readResponse } from '../../src/tasks/response.js';

// The normalise stage's character and markup rules (issue 40): digits after compatibility normalisation, markup
// comments and the OpenThoughts solution markers are not part of the answer.

/** The zero of every decimal-digit block (Unicode Nd) of the Basic Multilingual Plane and a few beyond. */
const ZEROS = [0x0660, 0x06f0, 0x07c0, 0x0966, 0x09e6, 0x0a66, 0x0e50, 0x0f20, 0x1040, 0xff10, 0x1d7ce, 0x1d7d8];

describe('normalizeCompatibility', () => {
  it('reads the decimal digits of other scripts and full-width forms as ASCII, with their values', () => {
    expect(normalizeCompatibility('[[５, ８, １], [２, ３, ４]]')).toBe('[[5, 8, 1], [2, 3, 4]]');
    expect(normalizeCompatibility('［Ａ＝１，　Ｂ＝２］')).toBe('[A=1,\u3000B=2]');
    expect(normalizeCompatibility('٤٢ and ४२')).toBe('42 and 42');
    expect(normalizeCompatibility('x² ﬁ ½')).toBe('x² ﬁ ½');
  });

  it('every digit of every block maps to its value; ASCII text is returned as it is', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ZEROS), fc.integer({ min: 0, max: 9 }), (zero, d) => {
        expect(normalizeCompatibility(`n=${String.fromCodePoint(zero + d)}`)).toBe(`n=${d}`);
      }),
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary-ascii' }), (text) => {
        expect(normalizeCompatibility(text)).toBe(text);
      }),
    );
  });
});

describe('stripMarkupComments', () => {
  it('removes closed and unclosed comments, and the solution markers', () => {
    expect(stripMarkupComments('ANSWER: 2\n<!-- ANSWER: 3 -->')).toBe('ANSWER: 2\n');
    expect(stripMarkupComments('a<!-- x -->b<!-- y')).toBe('ab');
    expect(stripMarkupComments('<|begin_of_solution|>ANSWER: 2<|end_of_solution|>')).toBe('\nANSWER: 2\n');
  });

  it('never leaves a comment opening behind; text without one is unchanged', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('<!--', '-->', 'a', ' ', '\n', '2')), (parts) => {
        const text = parts.join('');
        expect(stripMarkupComments(text)).not.toContain('<!--');
        if (!text.includes('<!--')) expect(stripMarkupComments(text)).toBe(text);
      }),
    );
  });

  it('applies to the answer channel only: a comment inside reasoning is reasoning', () => {
    expect(readResponse('<think>draft <!-- x --></think>\nANSWER: ５ <!-- 6 -->').answer).toBe('ANSWER: 5');
  });
});
