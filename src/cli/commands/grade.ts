import { UsageError } from '../errors';
import type { RegisterCommand } from './index';

// Placeholder until its issue lands: registered so that --help lists it, but it refuses to run.
export const registerGrade: RegisterCommand = (cli) => {
  cli
    .command('grade', 'not implemented yet')
    .allowUnknownOptions()
    .action(() => {
      throw new UsageError("'grade' is not implemented in this build yet");
    });
};
