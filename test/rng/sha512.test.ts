import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha512 } from '../../src/rng/sha512.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const nodeSha512 = (bytes: Uint8Array) => createHash('sha512').update(bytes).digest('hex');

describe('sha512 (pure, 32-bit halves)', () => {
  it('matches the FIPS 180-4 examples', () => {
    const text = (s: string) => new TextEncoder().encode(s);
    expect(hex(sha512(text('abc')))).toBe(
      'ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f',
    );
    expect(hex(sha512(text('')))).toBe(
      'cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e',
    );
  });

  it('equals Node’s SHA-512 on any bytes, across block boundaries (lengths 0-400)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), (bytes) => {
        expect(hex(sha512(bytes))).toBe(nodeSha512(bytes));
      }),
      { numRuns: 300, seed: 512 },
    );
    for (const length of [111, 112, 127, 128, 239, 240, 256])
      expect(hex(sha512(new Uint8Array(length).fill(0xff)))).toBe(nodeSha512(new Uint8Array(length).fill(0xff)));
  });
});
