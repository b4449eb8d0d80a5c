import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { balancedCandidates, MAX_BRACE_STARTS } from '../../src/tasks/scc-secondary/json-extract.js';

/** The authors' reading, one scan from every start (at most MAX_BRACE_STARTS): the oracle. */
function* scanFromEveryStart(s: string, from = 0): Generator<{ start: number; end: number }> {
  let starts = 0;
  for (let start = s.indexOf('{', from); start !== -1 && starts < MAX_BRACE_STARTS; start = s.indexOf('{', start + 1)) {
    starts++;
    let depth = 0;
    let inString = false;
    let escaped = false;
    for (let i = start; i < s.length; i++) {
      const c = s[i];
      if (inString) {
        if (escaped) escaped = false;
        else if (c === '\\') escaped = true;
        else if (c === '"') inString = false;
        continue;
      }
      if (c === '"') inString = true;
      else if (c === '{') depth++;
      else if (c === '}') {
        depth--;
        if (depth === 0) {
          yield { start, end: i + 1 };
          break;
        }
      }
    }
  }
}

const braceText = (maxLength: number) =>
  // any length up to maxLength (fast-check's default size keeps arrays to about ten elements)
  fc
    .array(fc.constantFrom('{', '}', '"', '\\', 'a', ':', ' ', '1'), { maxLength, size: 'max' })
    .map((chars) => chars.join(''));

describe('balancedCandidates: one reading per string state', () => {
  it('yields exactly what a scan from every start yields, in the same order', () => {
    fc.assert(
      fc.property(braceText(160), fc.nat(40), (text, from) => {
        expect([...balancedCandidates(text, from)]).toEqual([...scanFromEveryStart(text, from)]);
      }),
      { numRuns: 3000, seed: 64 },
    );
  });

  it('past MAX_BRACE_STARTS starts too (the bound is on starts, whatever closes)', () => {
    fc.assert(
      fc.property(braceText(600), (text) => {
        expect([...balancedCandidates(text)]).toEqual([...scanFromEveryStart(text)]);
      }),
      { numRuns: 300, seed: 65 },
    );
  });
});
