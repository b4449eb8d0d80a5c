import { UsageError } from '../errors';
import type { RegisterCommand } from './index';

// Placeholder until its issue lands: registered so that --help lists it, but it refuses to run.
export const registerGenerate: RegisterCommand = (cli) => {
  cli
    .command('generate', 'not implemented yet')
    .allowUnknownOptions()
    .action(() => {
      throw new UsageError("'generate' is not implemented in this build yet");
    });
};
