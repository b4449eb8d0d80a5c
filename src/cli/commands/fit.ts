import { UsageError } from '../errors';
import type { RegisterCommand } from './index';

// Placeholder until its issue lands: registered so that --help lists it, but it refuses to run.
export const registerFit: RegisterCommand = (cli) => {
  cli
    .command('fit', 'not implemented yet')
    .allowUnknownOptions()
    .action(() => {
      throw new UsageError("'fit' is not implemented in this build yet");
    });
};
