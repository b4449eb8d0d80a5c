import { cac } from 'cac';
import { describe, expect, it } from 'vitest';
import { commands } from '../../src/cli/commands/index.js';

// `--help` lists the commands from their help rows without importing them: each row must be exactly what its
// command registers, or the list would drift from the commands.
describe('the lazy command table', () => {
  it.each(commands.map((c) => [c.name, c] as const))(
    '%s registers the usage and description of its row',
    async (_, row) => {
      const cli = cac('ceilingbench');
      (await row.load())(cli, { stdout: () => {}, stderr: () => {} });
      expect(cli.commands.map((c) => [c.name, c.rawName, c.description])).toEqual([
        [row.name, row.usage, row.description],
      ]);
    },
  );
});
