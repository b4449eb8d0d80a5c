import { resolve } from 'node:path';
import { isFailureKind } from '../../../reporters/projections/example-view.js';
import { cellLines, type Line } from '../../../reporters/projections/show-text.js';
import { nearestNames } from '../../config/nearest-names.js';
import type { CellResult } from '../../schema/cell.js';
import { outcomeKinds } from '../../tasks/outcome.js';
import type { CliIo, RegisterCommand } from '../command.js';
import { UsageError } from '../errors.js';
import { DEFAULT_REPORT, readReportFile } from './report.js';
import { COMMAND_HELP } from './table.js';

interface ShowFlags {
  project?: string;
  level?: string | number;
  outcome?: string;
  n?: string | number;
}

const hint = (value: string, known: readonly string[]): string => {
  const near = nearestNames(value, known);
  return near.length > 0 ? `did you mean '${near.join("', '")}'?` : `use one of: ${known.join(', ')}`;
};

const sorted = (values: Iterable<string>): string[] => [...new Set(values)].sort();

/** The cells a project flag names: by Vitest project (d2, puzzles) or by task (hanoi). */
function byProject(cells: readonly CellResult[], project: string | undefined): CellResult[] {
  if (project === undefined) return [...cells];
  const chosen = cells.filter((c) => c.project === project || c.task === project);
  if (chosen.length > 0) return chosen;
  const known = sorted(cells.flatMap((c) => [c.project, c.task]));
  throw new UsageError(`--project: no cells of '${project}' in this report; ${hint(project, known)}`);
}

function byLevel(cells: readonly CellResult[], level: string | number | undefined): CellResult[] {
  if (level === undefined) return [...cells];
  const value = Number(level);
  if (!Number.isFinite(value)) throw new UsageError(`--level: '${level}' is not a number`);
  const chosen = cells.filter((c) => c.level === value);
  if (chosen.length > 0) return chosen;
  const levels = [...new Set(cells.map((c) => c.level))].sort((a, b) => a - b);
  throw new UsageError(`--level: no cell at level ${level} in the selection; its levels are ${levels.join(', ')}`);
}

function checkOutcome(cells: readonly CellResult[], outcome: string | undefined): void {
  if (outcome === undefined) return;
  const known = sorted(cells.flatMap((c) => outcomeKinds(c.family)));
  if (!known.includes(outcome)) {
    throw new UsageError(`--outcome: '${outcome}' is no outcome kind of the selected cells; ${hint(outcome, known)}`);
  }
}

function positive(name: string, value: string | number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--${name}: '${value}' is not a positive whole number`);
  return n;
}

/**
 * `ceilingbench show [ceilingbench.json]`: the example trials of the report's cells in the terminal — by default the
 * failures of the model, up to --n per cell — each with its trace beside the canonical one, the first divergent
 * step marked (highlighted on a terminal), the final answer and the reasoning.
 */
function showAction(path: string, flags: ShowFlags, io: CliIo): number {
  const report = readReportFile(resolve(path), io);
  const withExamples = report.cells.filter((c) => (c.examples ?? []).length > 0);
  if (withExamples.length === 0) {
    throw new UsageError(
      `${path}: no cell of this report kept examples (written with examples: 0, or by a ceilingbench before examples) — rerun with CEILINGBENCH_EXAMPLES=3`,
    );
  }
  const cells = byLevel(byProject(withExamples, flags.project), flags.level);
  checkOutcome(cells, flags.outcome);
  const n = positive('n', flags.n, 3);
  const wanted = (cell: CellResult, kind: string) =>
    flags.outcome === undefined ? isFailureKind(cell, kind) : kind === flags.outcome;
  const blocks = cells.flatMap((cell) => {
    const examples = (cell.examples ?? []).filter((x) => wanted(cell, x.kind)).slice(0, n);
    return examples.length > 0 ? [cellLines(cell, examples)] : [];
  });
  const write = (line: Line) =>
    io.stdoutLine ? io.stdoutLine(line) : io.stdout(`${line.map((s) => s.text).join('')}\n`);
  if (blocks.length === 0) {
    const kinds = sorted(cells.flatMap((c) => (c.examples ?? []).map((x) => x.kind)));
    write([
      {
        text:
          `no ${flags.outcome === undefined ? 'failing' : `'${flags.outcome}'`} example in the ${cells.length} selected cell(s); ` +
          `their examples are of: ${kinds.join(', ')} (--outcome <kind> shows them)`,
      },
    ]);
    return 0;
  }
  blocks.forEach((block, i) => {
    if (i > 0) write([{ text: '' }]);
    for (const line of block) write(line);
  });
  return 0;
}

export const registerShow: RegisterCommand = (cli, io) => {
  cli
    .command(COMMAND_HELP.show.usage, COMMAND_HELP.show.description)
    .option('--project <name>', 'Only this project or task (d2, puzzles, hanoi)')
    .option('--level <n>', 'Only cells at this level (a CCB depth N, a puzzle level, a length)')
    .option(
      '--outcome <kind>',
      'Only examples of this outcome kind (reasoning, format, fail, …); default: the failures',
    )
    .option('--n <n>', 'Examples per cell (default 3)')
    .action((json: string | undefined, flags: ShowFlags) => showAction(json ?? DEFAULT_REPORT, flags, io));
};
