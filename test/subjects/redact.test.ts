import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PARTIAL, REDACTED, redact } from '../../src/subjects/redact.js';

// Issue 42 item 6: a key or header value echoed by a provider in another case, JSON- or URL-escaped, HTML-encoded
// or in part never survives redaction; text without it is left as it was.

/** Every character as JSON's \uXXXX, as a provider's JSON encoder may write it. */
const jsonEscapedAll = (s: string) => [...s].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
/** Only the non-alphanumerics escaped, hex upper-case (`sk\u002Dtest`). */
const jsonEscapedSome = (s: string) =>
  s.replace(/[^A-Za-z0-9]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`);
/** Every byte percent-encoded, lower-case hex. */
const percentAll = (s: string) =>
  [...new TextEncoder().encode(s)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

const ENCODINGS: Record<string, (s: string) => string> = {
  verbatim: (s) => s,
  lower: (s) => s.toLowerCase(),
  upper: (s) => s.toUpperCase(),
  'JSON.stringify': (s) => JSON.stringify(s).slice(1, -1),
  'JSON \\u all': jsonEscapedAll,
  'JSON \\u some': jsonEscapedSome,
  encodeURIComponent: encodeURIComponent,
  'percent all': percentAll,
  'HTML entities': (s) => [...s].map((c) => `&#${c.charCodeAt(0)};`).join(''),
  'JSON in JSON': (s) => JSON.stringify(jsonEscapedSome(s)).slice(1, -1),
};

// keys and header values: printable ASCII, as providers issue them (sk-proj-…, Bearer tokens, base64)
const secretChar = fc.constantFrom(
  ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.+/=:'.split(''),
);
const secretArb = fc.array(secretChar, { minLength: 12, maxLength: 64 }).map((cs) => cs.join(''));
// surrounding text that cannot spell a secret's character in any encoding
const filler = fc.array(fc.constantFrom(...' ,;!?()[]{}<>|~`^'.split('')), { maxLength: 30 }).map((cs) => cs.join(''));

/** What a reader (or a log scraper) could recover: the text decoded in every way, lower-cased. */
function decodings(text: string): string[] {
  const out = [text];
  try {
    out.push(JSON.parse(`"${text.replace(/"/g, '\\"')}"`));
  } catch {}
  try {
    out.push(decodeURIComponent(text));
  } catch {}
  out.push(text.replace(/&#(\d+);/g, (_, d) => String.fromCharCode(Number(d))));
  return out.map((s) => s.toLowerCase());
}

describe('redact', () => {
  it.each(Object.keys(ENCODINGS))('removes the whole secret, %s, from any text around it', (name) => {
    fc.assert(
      fc.property(secretArb, filler, filler, (secret, before, after) => {
        const echoed = ENCODINGS[name](secret);
        const out = redact(`${before}${echoed}${after}`, [secret]);
        expect(out).toBe(`${before}${REDACTED}${after}`);
      }),
      { numRuns: 60 },
    );
  });

  it('removes any part of PARTIAL or more consecutive characters, in any encoding (a provider showing part of a key)', () => {
    fc.assert(
      fc.property(
        secretArb,
        fc.nat(),
        fc.nat(),
        fc.constantFrom(...Object.keys(ENCODINGS)),
        filler,
        (secret, a, b, name, around) => {
          const start = a % (secret.length - PARTIAL + 1);
          const end = start + PARTIAL + (b % (secret.length - start - PARTIAL + 1));
          const part = secret.slice(start, end);
          const out = redact(`${around}${ENCODINGS[name](part)}${around}`, [secret]);
          for (const decoded of decodings(out))
            for (let i = 0; i + PARTIAL <= secret.length; i++)
              expect(decoded).not.toContain(secret.slice(i, i + PARTIAL).toLowerCase());
        },
      ),
      { numRuns: 200 },
    );
  });

  it('covers every configured secret (the key and each header value) at once, and keeps JSON valid', () => {
    const key = 'sk-test-0123456789abcdef';
    const header = 'Bearer "gw" token\\42';
    const body = JSON.stringify({ error: `bad key ${key.toUpperCase()} and header ${header}` });
    const out = redact(body, [key, header]);
    expect(JSON.parse(out)).toEqual({ error: `bad key ${REDACTED} and header ${REDACTED}` });
  });

  it('leaves text without a secret as it was, and ignores placeholders shorter than 4 characters', () => {
    fc.assert(
      fc.property(secretArb, filler, (secret, text) => {
        expect(redact(text, [secret])).toBe(text);
      }),
    );
    expect(redact('the key x was refused', ['x'])).toBe('the key x was refused');
  });

  it('the exact issue case: a lower-cased and a JSON-escaped echo of the key', () => {
    const key = 'sk-TEST-abcdefghijklmnop';
    expect(redact(`invalid key: ${key.toLowerCase()}`, [key])).toBe('invalid key: ***');
    expect(redact('{"message":"key sk\\u002dTEST\\u002dabcdefghijklmnop"}', [key])).toBe('{"message":"key ***"}');
  });
});

describe('whole secrets only (the report set scrubbed after it is written)', () => {
  it("never mangles ceilingbench's own words that share a run of characters with a secret", () => {
    const key = 'sk-ceilingbench-SENTINEL-7f3a9c';
    const json = '{"tool":{"name":"ceilingbench","version":"0.1.0"}}';
    expect(redact(json, [key], { partial: false })).toBe(json);
    // the same text with partial echoes on would lose the tool's name: partial runs are for a provider's words
    expect(redact(json, [key])).not.toBe(json);
    expect(redact(`x ${key.toUpperCase()} y ${JSON.stringify(key)}`, [key], { partial: false })).toBe(
      `x ${REDACTED} y "${REDACTED}"`,
    );
  });
});
