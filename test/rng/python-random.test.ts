import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PyRandom } from '../../src/rng/index.js';

type Call = [string, unknown[]];
interface Case {
  seed: number | string;
  calls: Call[];
  results: unknown[];
}
const vectors = JSON.parse(
  readFileSync(new URL('../../fixtures/rng/cpython-vectors.json', import.meta.url), 'utf8'),
) as {
  cases: Case[];
};
const sccVectors = JSON.parse(readFileSync(new URL('../../fixtures/scc/python_rng.json', import.meta.url), 'utf8')) as {
  int_seeds: {
    seed: number;
    first_getrandbits32: number[];
    ladder_draws_in_order: { low: number; high: number; randint16: number[] }[];
  }[];
  str_seeds: { seed: string; first_getrandbits32: number[] }[];
};

/** A seed from the fixture: strings that look like integers were too large for a JSON number. */
function fixtureSeed(seed: number | string, isStringSeed: boolean): number | bigint | string {
  if (typeof seed === 'number') return seed;
  return isStringSeed ? seed : BigInt(seed);
}

function invoke(rng: PyRandom, [name, args]: Call): unknown {
  switch (name) {
    case 'getrandbits': {
      const k = args[0] as number;
      const v = rng.getrandbitsBig(k);
      return v >= 2n ** 53n ? v.toString() : Number(v);
    }
    case 'random':
      return rng.random();
    case 'uniform':
      return rng.uniform(args[0] as number, args[1] as number);
    case 'randint':
      return rng.randint(args[0] as number, args[1] as number);
    case 'randrange':
      return rng.randrange(...(args as [number, number?, number?]));
    case 'choice':
      return rng.choice(args[0] as string);
    case 'sample':
      return rng.sample(args[0] as unknown[], args[1] as number);
    case 'shuffle':
      return rng.shuffle([...(args[0] as unknown[])]);
    default:
      throw new Error(`unknown call ${name}`);
  }
}

describe('PyRandom reproduces CPython 3.11 random', () => {
  it('matches the ccb.md seed-50000 vectors', () => {
    const r = new PyRandom(50000);
    expect(Array.from({ length: 8 }, () => r.getrandbits(32))).toEqual([
      1973150819, 222745835, 788208074, 1777732148, 4091165354, 3491068723, 2431728656, 1254907954,
    ]);
    const r7 = new PyRandom(50000);
    expect(Array.from({ length: 8 }, () => r7.randrange(7))).toEqual([3, 0, 1, 3, 6, 4, 2, 4]);
    const r5 = new PyRandom(50000);
    expect(Array.from({ length: 8 }, () => r5.randrange(5))).toEqual([3, 0, 1, 3, 4, 2, 4, 4]);
    const r2 = new PyRandom(50000);
    expect(Array.from({ length: 8 }, () => r2.randrange(2))).toEqual([1, 0, 0, 1, 1, 1, 0, 1]);
    const rs = new PyRandom(50000);
    expect([rs.sample('ABCDEFGHIJ', 2), rs.sample('ABCDEFGHIJ', 2)]).toEqual([
      ['H', 'A'],
      ['C', 'G'],
    ]);
    expect(new PyRandom(50000).random()).toBe(0.45940997490184043);
    const r100 = new PyRandom(100000);
    expect(Array.from({ length: 4 }, () => r100.getrandbits(32))).toEqual([
      401187666, 2086861731, 3382521693, 75067748,
    ]);
  });

  for (const s of sccVectors.int_seeds) {
    it(`matches fixtures/scc/python_rng.json for int seed ${s.seed} (words and ladder draws)`, () => {
      const words = new PyRandom(s.seed);
      expect(s.first_getrandbits32.map(() => words.getrandbits(32))).toEqual(s.first_getrandbits32);
      const ladder = new PyRandom(s.seed);
      for (const tier of s.ladder_draws_in_order) {
        expect(tier.randint16.map(() => ladder.randint(tier.low, tier.high))).toEqual(tier.randint16);
      }
    });
  }
  for (const s of sccVectors.str_seeds) {
    it(`matches fixtures/scc/python_rng.json for string seed ${JSON.stringify(s.seed)}`, () => {
      const r = new PyRandom(s.seed);
      expect(s.first_getrandbits32.map(() => r.getrandbits(32))).toEqual(s.first_getrandbits32);
    });
  }
  for (const c of vectors.cases) {
    it(`matches fixtures/rng/cpython-vectors.json for seed ${JSON.stringify(c.seed)}`, () => {
      const isStringSeed = c.calls.length === 6;
      const rng = new PyRandom(fixtureSeed(c.seed, isStringSeed));
      expect(c.calls.map((call) => invoke(rng, call))).toEqual(c.results);
    });
  }
});

describe('PyRandom properties', () => {
  it('randint stays in [a, b] and is deterministic per seed', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 40 }),
        fc.integer({ min: -1000, max: 1000 }),
        fc.nat(5000),
        (seed, a, w) => {
          const x = new PyRandom(seed);
          const y = new PyRandom(seed);
          for (let i = 0; i < 5; i++) {
            const v = x.randint(a, a + w);
            expect(v).toBeGreaterThanOrEqual(a);
            expect(v).toBeLessThanOrEqual(a + w);
            expect(y.randint(a, a + w)).toBe(v);
          }
        },
      ),
    );
  });

  it('random() is in [0, 1) and sample returns k distinct positions of the population', () => {
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 1, max: 400 }), fc.nat(400), (seed, n, kRaw) => {
        const k = kRaw % (n + 1);
        const r = new PyRandom(seed);
        const u = r.random();
        expect(u).toBeGreaterThanOrEqual(0);
        expect(u).toBeLessThan(1);
        const population = Array.from({ length: n }, (_, i) => i);
        const s = r.sample(population, k);
        expect(s).toHaveLength(k);
        expect(new Set(s).size).toBe(k);
        const shuffled = r.shuffle([...population]);
        expect([...shuffled].sort((a, b) => a - b)).toEqual(population);
      }),
    );
  });

  it('rejects bad arguments with a RangeError rather than returning garbage', () => {
    const r = new PyRandom(1);
    expect(() => r.randint(5, 4)).toThrow(RangeError);
    expect(() => r.choice([])).toThrow(RangeError);
    expect(() => r.sample([1, 2], 3)).toThrow(RangeError);
    expect(() => new PyRandom(2 ** 60)).toThrow(RangeError);
  });
});
