import { terminalSafe } from '../report/safe-text.js';
import { EXIT } from './errors.js';
import { runCli } from './program.js';

runCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `ceilingbench: internal error: ${terminalSafe(error instanceof Error ? (error.stack ?? error.message) : String(error))}\n`,
    );
    process.exitCode = EXIT.internal;
  },
);
