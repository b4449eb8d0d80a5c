import { MersenneTwister } from './mt19937.js';
import { sha512 } from './sha512.js';

/** A seed as CPython's `random.seed` accepts it (seed version 2): an integer or a string. */
export type PySeed = number | bigint | string;

function integerSeedKey(seed: bigint): number[] {
  let magnitude = seed < 0n ? -seed : seed;
  const key: number[] = [];
  while (magnitude > 0n) {
    key.push(Number(magnitude & 0xffffffffn));
    magnitude >>= 32n;
  }
  return key.length === 0 ? [0] : key;
}

/** CPython: for str seeds, n = int.from_bytes(b + sha512(b), 'big') with b the UTF-8 bytes. */
function stringSeedToInteger(seed: string): bigint {
  const bytes = new TextEncoder().encode(seed);
  const digest = sha512(bytes);
  let n = 0n;
  for (const byte of [...bytes, ...digest]) n = (n << 8n) | BigInt(byte);
  return n;
}

function toBigIntSeed(seed: PySeed): bigint {
  if (typeof seed === 'string') return stringSeedToInteger(seed);
  if (typeof seed === 'number') {
    if (!Number.isSafeInteger(seed)) {
      throw new RangeError(`seed ${seed} is not a safe integer; pass a bigint or a string instead`);
    }
    return BigInt(seed);
  }
  return seed;
}

const bitLength = (n: bigint): number => (n === 0n ? 0 : n.toString(2).length);

/**
 * A reimplementation of CPython 3.11's `random.Random` for the functions ceilingbench needs.
 * Every call consumes the Mersenne Twister stream exactly as CPython does, so the same seed and the
 * same call sequence give the same values (the golden vectors in fixtures/rng prove it).
 */
export class PyRandom {
  private readonly mt: MersenneTwister;

  constructor(seed: PySeed) {
    this.mt = new MersenneTwister(integerSeedKey(toBigIntSeed(seed)));
  }

  /** k random bits as a number, 0 ≤ k ≤ 32 (CPython: one output word shifted right). */
  getrandbits(k: number): number {
    if (!Number.isInteger(k) || k < 0) throw new RangeError('number of bits must be a non-negative integer');
    if (k === 0) return 0;
    if (k <= 32) return this.mt.nextU32() >>> (32 - k);
    if (k <= 53) return Number(this.getrandbitsBig(k));
    throw new RangeError(`getrandbits(${k}) exceeds 53 bits; use getrandbitsBig`);
  }

  /** k random bits for any k: words are filled least significant first, the last one truncated. */
  getrandbitsBig(k: number): bigint {
    if (!Number.isInteger(k) || k < 0) throw new RangeError('number of bits must be a non-negative integer');
    let result = 0n;
    let shift = 0n;
    for (let remaining = k; remaining > 0; remaining -= 32) {
      let word = this.mt.nextU32();
      if (remaining < 32) word >>>= 32 - remaining;
      result |= BigInt(word) << shift;
      shift += 32n;
    }
    return result;
  }

  /** CPython's `_randbelow_with_getrandbits`: k = bit_length(n), reject r ≥ n. */
  randbelow(n: number | bigint): number {
    const big = BigInt(n);
    if (big <= 0n) throw new RangeError(`randbelow(${n}): n must be positive`);
    if (big <= 0xffffffffn) {
      const limit = Number(big);
      const k = bitLength(big);
      let r = this.getrandbits(k);
      while (r >= limit) r = this.getrandbits(k);
      return r;
    }
    return Number(this.randbelowBig(big));
  }

  randbelowBig(n: bigint): bigint {
    if (n <= 0n) throw new RangeError(`randbelow(${n}): n must be positive`);
    const k = bitLength(n);
    let r = this.getrandbitsBig(k);
    while (r >= n) r = this.getrandbitsBig(k);
    return r;
  }

  /** `random()`: 53-bit float from two words, (a·2^26 + b) / 2^53. */
  random(): number {
    const a = this.mt.nextU32() >>> 5;
    const b = this.mt.nextU32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }

  uniform(a: number, b: number): number {
    return a + (b - a) * this.random();
  }

  /** `randrange(stop)` or `randrange(start, stop[, step])`, as in CPython 3.11. */
  randrange(start: number, stop?: number, step = 1): number {
    if (stop === undefined) {
      if (start > 0) return this.randbelow(start);
      throw new RangeError('empty range for randrange()');
    }
    const width = stop - start;
    if (step === 1) {
      if (width > 0) return start + this.randbelow(width);
      throw new RangeError(`empty range for randrange(${start}, ${stop})`);
    }
    if (!Number.isInteger(step) || step === 0) throw new RangeError('zero step for randrange()');
    const n = step > 0 ? Math.floor((width + step - 1) / step) : Math.floor((width + step + 1) / step);
    if (n <= 0) throw new RangeError(`empty range for randrange(${start}, ${stop}, ${step})`);
    return start + step * this.randbelow(n);
  }

  /** `randint(a, b)`: inclusive on both ends. */
  randint(a: number, b: number): number {
    return this.randrange(a, b + 1);
  }

  choice<T>(seq: ArrayLike<T>): T {
    if (seq.length === 0) throw new RangeError('Cannot choose from an empty sequence');
    return seq[this.randbelow(seq.length)];
  }

  /** `sample(population, k)` with both CPython branches (pool for small n, set-based for large n). */
  sample<T>(population: ArrayLike<T>, k: number): T[] {
    const n = population.length;
    if (!Number.isInteger(k) || k < 0 || k > n) throw new RangeError('Sample larger than population or is negative');
    const result = new Array<T>(k);
    let setsize = 21;
    if (k > 5) setsize += 4 ** Math.ceil(Math.log(k * 3) / Math.log(4));
    if (n <= setsize) {
      const pool = Array.from(population);
      for (let i = 0; i < k; i++) {
        const j = this.randbelow(n - i);
        result[i] = pool[j];
        pool[j] = pool[n - i - 1];
      }
    } else {
      const selected = new Set<number>();
      for (let i = 0; i < k; i++) {
        let j = this.randbelow(n);
        while (selected.has(j)) j = this.randbelow(n);
        selected.add(j);
        result[i] = population[j];
      }
    }
    return result;
  }

  /** In-place Fisher–Yates from the end, as CPython 3.11 `shuffle(x)`. */
  shuffle<T>(x: T[]): T[] {
    for (let i = x.length - 1; i > 0; i--) {
      const j = this.randbelow(i + 1);
      const tmp = x[i];
      x[i] = x[j];
      x[j] = tmp;
    }
    return x;
  }
}
