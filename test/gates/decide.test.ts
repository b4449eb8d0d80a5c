import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nearestNames } from '../../src/config/nearest-names.js';
import type { ProjectGates } from '../../src/config/schema.js';
import { gateKeyCovers, unknownGateKeys } from '../../src/gates/index.js';

const PROJECTS = ['d1', 'd2', 'd3', 'puzzles', 'scc', 'd2@a', 'd2@b', 'benchmarks'];
describe('gate keys', () => {
  it('a key naming no project of the configuration is named with the projects it could mean', () => {
    expect(unknownGateKeys({ D2: { minRetention: 0.9 } }, ['d1', 'd2', 'd3'])).toEqual([
      "gates: 'D2' names no project of this configuration (projects: d1, d2, d3) — did you mean 'd2'? Gates are keyed by Vitest project name",
    ]);
    expect(unknownGateKeys({ d2: { minRetention: 0.9 } }, ['d2@a', 'd2@b'])).toEqual([]);
    expect(nearestNames('benchmark', ['benchmarks', 'd1'])).toEqual(['benchmarks']);
    expect(nearestNames('zzzz', ['d1', 'd2'])).toEqual([]);
  });

  it('every key is known iff it covers a known project (property)', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.constant({ minRetention: 0.9 } as ProjectGates)),
        fc.subarray(PROJECTS),
        (gates, known) => {
          const unknown = unknownGateKeys(gates, known);
          const expected = Object.keys(gates).filter((k) => !known.some((p) => gateKeyCovers(k, p)));
          expect(unknown).toHaveLength(expected.length);
        },
      ),
    );
  });
});
