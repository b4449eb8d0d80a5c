import { describe, expect, it } from 'vitest';
import { replicateIndices } from '../../src/assays/sweep/run-cell.js';
import { type AnyTaskPlugin, generateCell, resolveTask } from '../../src/tasks/index.js';

/** A plugin whose instance is `seed mod space`: the smallest thing with a controllable instance space. */
function modPlugin(space: number, fixed = false): AnyTaskPlugin {
  return {
    ...resolveTask('d1'),
    id: 'mod',
    fixedInstancePerLevel: fixed,
    generate: (_rng, level, { seed }) => ({
      task: 'mod',
      level,
      seed,
      profile: 'x',
      data: seed % space,
      trace: [],
      answer: 0,
    }),
    instanceKey: (instance) => String(instance.data),
  };
}

describe('generateCell', () => {
  it('uses the release seeds level·10000 + attempt + offset and skips duplicate instances', () => {
    const cell = generateCell(modPlugin(1000), 5, 4, { seedOffset: 7 });
    expect(cell.map((i) => i.seed)).toEqual([50007, 50008, 50009, 50010]);
  });

  it('replicates a fixed-per-level instance, and round-robins a space smaller than the cell', () => {
    expect(generateCell(modPlugin(1000, true), 3, 5).map((i) => i.seed)).toEqual([30000, 30000, 30000, 30000, 30000]);
    const small = generateCell(modPlugin(3), 1, 7);
    expect(small.map((i) => i.data)).toEqual([1, 2, 0, 1, 2, 0, 1]);
  });

  it('reproduces the one skipped release seed of D2 at depth 5 (50009 repeats an earlier chain)', () => {
    const seeds = generateCell(resolveTask('d2'), 5, 40).map((i) => i.seed);
    expect(seeds).not.toContain(50009);
    expect(seeds.at(-1)).toBe(50040);
  });
});

describe('replicateIndices', () => {
  it('counts earlier trials of the same instance so repeated requests stay distinct', () => {
    const task = modPlugin(3);
    expect(replicateIndices(task, generateCell(task, 1, 7))).toEqual([0, 0, 0, 1, 1, 1, 2]);
  });
});
