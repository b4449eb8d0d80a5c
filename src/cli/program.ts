import { readFileSync } from 'node:fs';
import { type CAC, cac } from 'cac';
import { terminalSafe } from '../../reporters/projections/safe-text.js';
import type { Mark } from '../../reporters/projections/show-text.js';
import { PACKAGE_ROOT_URL } from '../vitest/files.js';
import type { CliIo } from './command.js';
import { commands, type LazyCommand } from './commands/index.js';
import { ERROR_CODES, EXIT, errorCodeOf, UsageError } from './errors.js';

const pkg = JSON.parse(readFileSync(new URL('package.json', PACKAGE_ROOT_URL), 'utf8')) as { version: string };

export type { CliIo };

const defaultIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  tty: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR,
};

/** SGR parameters of the marks a command may highlight (reporters/projections/show-text.ts). */
const SGR: Readonly<Record<Mark, string>> = { divergent: '1;31', strong: '1', dim: '2' };

/**
 * What a command prints carries data: test and model names, provider errors, graded answers (`grade`), report
 * fields. Every write passes terminalSafe, so no control sequence of theirs reaches the terminal; its escapes are
 * JSON's, so `--json` output stays valid JSON of the same value.
 */
const safeIo = (io: CliIo): CliIo => ({
  stdout: (text) => io.stdout(terminalSafe(text)),
  stderr: (text) => io.stderr(terminalSafe(text)),
  tty: io.tty === true,
  stdoutLine: (segments) =>
    io.stdout(
      `${segments
        .map(({ text, mark }) => {
          const safe = terminalSafe(text);
          return io.tty === true && mark !== undefined && safe !== '' ? `\u001b[${SGR[mark]}m${safe}\u001b[0m` : safe;
        })
        .join('')}\n`,
    ),
});

function parser(): CAC {
  const cli = cac('ceilingbench');
  cli.help();
  cli.version(pkg.version);
  return cli;
}

/**
 * The command argv names, found by parsing against the help rows alone (no help or version handler, so this
 * parse prints nothing); undefined for none or an unknown one. Only that command's graph is then imported.
 */
function namedCommand(argv: string[]): LazyCommand | undefined {
  const rows = cac('ceilingbench');
  for (const { usage, description } of commands) rows.command(usage, description);
  rows.parse(['node', 'ceilingbench', ...argv], { run: false });
  return commands.find((command) => command.name === rows.matchedCommandName);
}

/** Parses argv and runs one command; resolves to the process exit code (never calls process.exit). */
export async function runCli(argv: string[], rawIo: CliIo = defaultIo): Promise<number> {
  const io = safeIo(rawIo);
  const cli = parser();
  const named = namedCommand(argv);
  if (named === undefined) for (const { usage, description } of commands) cli.command(usage, description);
  else (await named.load())(cli, io);
  try {
    cli.parse(['node', 'ceilingbench', ...argv], { run: false });
    if (cli.options.help || cli.options.version) return EXIT.ok;
    if (!cli.matchedCommand) {
      if (cli.args.length > 0) {
        throw new UsageError(`unknown command '${cli.args[0]}'; run 'ceilingbench --help' for the list of commands`);
      }
      cli.outputHelp();
      return EXIT.ok;
    }
    const code = await cli.runMatchedCommand();
    return typeof code === 'number' ? code : EXIT.ok;
  } catch (error) {
    const code = errorCodeOf(error);
    if (code !== undefined) {
      io.stderr(`ceilingbench: ${(error as Error).message}\n`);
      return ERROR_CODES[code].exit;
    }
    // cac does not export its error class: a bad option or a missing argument is known only by name.
    if (error instanceof Error && error.name === 'CACError') {
      io.stderr(`ceilingbench: ${error.message}\n`);
      return EXIT.usage;
    }
    throw error;
  }
}
