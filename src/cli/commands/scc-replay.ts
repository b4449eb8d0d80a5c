import { UsageError } from '../errors';
import type { RegisterCommand } from './index';

// Placeholder until its issue lands: registered so that --help lists it, but it refuses to run.
export const registerSccReplay: RegisterCommand = (cli) => {
  cli
    .command('scc-replay', 'not implemented yet')
    .allowUnknownOptions()
    .action(() => {
      throw new UsageError("'scc-replay' is not implemented in this build yet");
    });
};
