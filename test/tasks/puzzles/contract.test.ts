import { describe, expect, it } from 'vitest';
import { PyRandom } from '../../../src/rng/index.js';
import { puzzleTasks } from '../../../src/tasks/puzzles/index.js';
import { puzzleBehaviour } from '../../support/puzzle-behaviour.js';
import {
  assertGarbageClassified,
  assertGoldenFixtures,
  assertGradingContract,
  assertLevelTable,
  assertPuzzleSkeleton,
  assertRegistered,
  assertSimulation,
} from '../../support/puzzle-contract.js';

describe('puzzleTasks', () => {
  it('are the nine families of docs/spec/puzzles.md, in its order', () => {
    expect(puzzleTasks.map((plugin) => plugin.id)).toEqual([
      'hanoi',
      'checkers',
      'river',
      'sat',
      'crypt',
      'coloring',
      'jug',
      'sudoku',
      'rubik',
    ]);
  });
});

describe.each(puzzleTasks.map((plugin) => ({ id: plugin.id, plugin })))('puzzle contract: $id', ({ id, plugin }) => {
  it('declares the shared puzzle skeleton', () => assertPuzzleSkeleton(plugin));

  it('has budgets and knobs for the six levels and rejects any other level', () => assertLevelTable(plugin));

  it('is registered under its id', () => assertRegistered(plugin));

  it('reproduces its golden fixtures byte for byte (instance, prompt, canonical response)', () =>
    assertGoldenFixtures(plugin));

  it('grades canonical answers pass and non-answers collapse on every level', () =>
    assertGradingContract(plugin, [1, 2, 3, 4]));

  it('simulates deterministically, exactly at retention 1', () => assertSimulation(plugin, 5));

  it('classifies garbage built from its own answer format without throwing', () =>
    assertGarbageClassified(plugin, plugin.generate(new PyRandom(3), 3, { seed: 3 })));

  it('behaves byte for byte as recorded (instances, prompts, grading, simulation, budgets)', async () => {
    const behaviour = puzzleBehaviour(plugin, [1, 2]);
    await expect(`${JSON.stringify(behaviour, null, 2)}\n`).toMatchFileSnapshot(`./behaviour/${id}.json`);
  });
});
