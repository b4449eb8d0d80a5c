import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  lastDigitEnd,
  MAX_INT_DIGITS,
  parseLastInteger,
  scanLastInteger,
  scoreCount,
} from '../../src/tasks/count/parse.js';
import { countedText } from '../support/puzzle-counted-text.js';

interface ParserCase {
  input?: string;
  input_repr?: string;
  parsed: number | string | null;
}
const fixture = JSON.parse(readFileSync(new URL('../../fixtures/scc/parser_cases.json', import.meta.url), 'utf8')) as {
  cases: ParserCase[];
};

/** Python's findall(r'-?\d+')[-1], ASCII digits only, as a slow reference. */
function referenceAscii(text: string): bigint | null {
  const matches = text.match(/-?[0-9]+/g);
  return matches ? BigInt(matches[matches.length - 1]) : null;
}

describe('last-integer parser (parser_cases.json)', () => {
  it('matches every literal case', () => {
    for (const c of fixture.cases.filter((x) => x.input !== undefined)) {
      const got = parseLastInteger(c.input as string);
      expect(got === null ? null : Number(got), JSON.stringify(c.input)).toBe(c.parsed);
    }
  });

  it('refuses more than 4,300 digits and accepts 4,300', () => {
    expect(parseLastInteger('1'.repeat(MAX_INT_DIGITS + 1))).toBeNull();
    expect(parseLastInteger('1'.repeat(MAX_INT_DIGITS))).toBe(BigInt('1'.repeat(MAX_INT_DIGITS)));
  });

  it('turns a 200-digit answer into the authors’ overflow error trial', () => {
    const score = scoreCount(parseLastInteger('1'.repeat(200)), 32);
    expect(score.kind).toBe('overflow');
    expect(scoreCount(parseLastInteger('1'.repeat(100)), 32).kind).toBe('scored');
  });

  it('reads Unicode decimal digits by value (full-width, Arabic-Indic, Devanagari, math bold)', () => {
    expect(parseLastInteger('３２')).toBe(32n);
    expect(parseLastInteger('٣٢')).toBe(32n);
    expect(parseLastInteger('संख्या ३१३ है')).toBe(313n);
    expect(parseLastInteger('𝟗𝟖')).toBe(98n);
    expect(parseLastInteger('x-٥')).toBe(-5n);
  });

  it('agrees with a regex reference on ASCII text', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('1', '2', '0', '-', ' ', 'a', ',', '.', '\n', '+') }), (text) => {
        expect(parseLastInteger(text)).toBe(referenceAscii(text));
      }),
    );
  });

  it('reads from the end what a left-to-right scan by code point reads, surrogates and astral digits included', () => {
    // the last maximal run of Nd code points (a lone surrogate is a code point of its own), as for…of reads them
    const reference = (text: string) => {
      const matches = [...text.matchAll(/\p{Nd}+/gu)];
      const last = matches.at(-1);
      return last === undefined ? { end: -1 } : { end: last.index + last[0].length, start: last.index };
    };
    const unit = fc.constantFrom('1', '0', '-', ' ', 'a', '\n', '٣', '𝟗', '😀', '\ud835', '\udfd7', '\ud83d', '５');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 40 }), (text) => {
        const { end, start } = reference(text);
        expect(lastDigitEnd(text)).toBe(end);
        const scan = scanLastInteger(text);
        if (start === undefined) expect(scan.kind).toBe('none');
        else {
          expect(scan).toMatchObject({ kind: 'integer', digits: [...text.slice(start, end)].length });
          const sign = start > 0 && text[start - 1] === '-' ? -1n : 1n;
          expect(scan.kind === 'integer' && scan.value * sign >= 0n).toBe(true);
        }
      }),
      { numRuns: 3000 },
    );
  });

  // Timing (ms per size): bench/linearity-suite.ts, `npx tsx bench/run.ts --only linearity`.
  it('reads adversarial input in one pass (characters read counted)', () => {
    for (const text of [
      `${'-'.repeat(200_000)}${'1-'.repeat(200_000)}`,
      `${'1'.repeat(MAX_INT_DIGITS)}${'-٣'.repeat(100_000)}`,
      `${'x'.repeat(300_000)}${'7'.repeat(MAX_INT_DIGITS + 1)}`,
    ]) {
      const counted = countedText(text);
      expect(parseLastInteger(counted.text)).toBe(parseLastInteger(text));
      // at most two reads per character: the scan, and the copy of the last digit run
      expect(counted.reads()).toBeLessThanOrEqual(2 * text.length);
    }
    expect(parseLastInteger(`${'-'.repeat(200_000)}${'1-'.repeat(200_000)}`)).toBe(-1n);
  });
});
