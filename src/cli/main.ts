import { terminalSafe } from '../../reporters/projections/safe-text.js';
import { EXIT } from './errors.js';
import { runCli } from './program.js';

/**
 * A reader that went away (`ceilingbench generate … | head -1`) is the end of the output, not a crash: exit at once
 * with the exit code so far, printing nothing (stderr may be the closed pipe too). Any other stream error is one.
 */
function quietOnClosedPipe(error: NodeJS.ErrnoException): void {
  if (error.code !== 'EPIPE') throw error;
  process.exit(typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok);
}
process.stdout.on('error', quietOnClosedPipe);
process.stderr.on('error', quietOnClosedPipe);

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
