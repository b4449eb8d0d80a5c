import { describe, expect, it } from 'vitest';
import { puzzleTasks } from '../../../src/tasks/puzzles/index.js';
import { puzzleBehaviour } from '../../support/puzzle-behaviour.js';

describe.each(puzzleTasks.map((plugin) => ({ id: plugin.id, plugin })))('puzzle contract: $id', ({ id, plugin }) => {
  it('behaves byte for byte as recorded (instances, prompts, grading, simulation, budgets)', async () => {
    const behaviour = puzzleBehaviour(plugin, [1, 2]);
    await expect(`${JSON.stringify(behaviour, null, 2)}\n`).toMatchFileSnapshot(`./behaviour/${id}.json`);
  });
});
