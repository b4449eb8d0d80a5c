import { readFileSync } from 'node:fs';
import { loadConfig } from '../../config/load.js';
import { withResponseChannels } from '../../tasks/final-answer.js';
import { resolveTask } from '../../tasks/registry.js';
import type { FinishReason } from '../../tasks/task.js';
import type { RegisterCommand } from '../command.js';
import { UsageError } from '../errors.js';
import { type InstanceArgs, resolveInstance, withInstanceOptions } from './generate.js';
import { gradeLines, gradeSummary } from './grade-lines.js';
import { importConfigFile } from './plan.js';
import { COMMAND_HELP } from './table.js';

const FINISH_REASONS = ['stop', 'length'] as const;

function finishReasonArg(value: unknown): FinishReason {
  if (value === undefined) return null;
  const name = String(value);
  if (!(FINISH_REASONS as readonly string[]).includes(name)) {
    throw new UsageError(`--finish-reason must be one of ${FINISH_REASONS.join(', ')}, got '${name}'`);
  }
  return name as FinishReason;
}

/** `--response -` (cac reads a bare `-` as a value-less flag) or `--response=-` reads stdin. */
function readInput(value: unknown, flag: '--response' | '--responses'): string {
  const path = value === true || value === '-' ? 0 : String(value);
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new UsageError(
      `cannot read ${flag} '${path === 0 ? '-' : path}': ${reason}; pass a readable file or - for stdin`,
    );
  }
}

interface GradeFlags extends InstanceArgs {
  finishReason?: unknown;
  response?: unknown;
  responses?: unknown;
  json?: boolean;
}

/**
 * The task as a run grades it: with the user's reasoning delimiters of ceilingbench.config.ts (in the current
 * directory, or CEILINGBENCH_CONFIG) and CEILINGBENCH_REASONING_TAGS.
 */
async function configuredTask(task: string) {
  const plugin = resolveTask(task); // an unknown task is a CeilingbenchError with exit 2
  const cwd = process.cwd();
  const config = await loadConfig(process.env, cwd, (path) => importConfigFile(path, cwd));
  return withResponseChannels(plugin, config.reasoningDelimiters);
}

export const registerGrade: RegisterCommand = (cli, io) => {
  withInstanceOptions(cli.command(COMMAND_HELP.grade.usage, COMMAND_HELP.grade.description))
    .option('--finish-reason <reason>', 'Why generation stopped: stop | length')
    .option('--response [file]', 'The response text: a file, or - for stdin')
    .option(
      '--responses [file]',
      'A JSONL file of {response, finish_reason?, reasoning_content?, depth?|level?, seed?, profile?}, one a line; - for stdin',
    )
    .option('--json', 'Print one JSON object (with --responses: one per line)')
    .example('ceilingbench grade d1 --depth 5 --seed 50000 --response answer.txt --json')
    .example('ceilingbench grade d1 --depth 5 --responses log.jsonl --json')
    .action(async (task: string, options: GradeFlags) => {
      if (options.response !== undefined && options.responses !== undefined) {
        throw new UsageError('give --response (one response) or --responses (a JSONL file), not both');
      }
      if (options.responses !== undefined) {
        if (options.finishReason !== undefined) {
          throw new UsageError(
            '--finish-reason applies to --response; a --responses line carries its own finish_reason',
          );
        }
        const plugin = await configuredTask(task);
        const results = gradeLines(plugin, readInput(options.responses, '--responses'), options);
        if (options.json) {
          io.stdout(results.map((result) => `${JSON.stringify(result)}\n`).join(''));
          return 0;
        }
        const lines = results.map((r) =>
          'error' in r
            ? `line ${r.line}: error (${r.error}): ${r.message}`
            : `line ${r.line}: ${r.outcome}${r.issues.length > 0 ? ` — ${r.issues.join('; ')}` : ''}`,
        );
        io.stdout(lines.length > 0 ? `${lines.join('\n')}\n` : '(no responses)\n');
        return 0;
      }
      const finishReason = finishReasonArg(options.finishReason);
      if (options.response === undefined)
        throw new UsageError('missing --response <file|->; pass the model output file, or - for stdin');
      const { instance } = resolveInstance(task, options);
      const plugin = await configuredTask(task);
      const text = readInput(options.response, '--response');
      const result = gradeSummary(plugin.grade(instance, text, { finishReason }));
      if (options.json) {
        io.stdout(`${JSON.stringify(result, null, 2)}\n`);
        return 0;
      }
      const lines = Object.entries(result)
        .filter(([key]) => key !== 'issues')
        .map(([key, value]) => `${key}: ${String(value)}`);
      const issues = result.issues.length > 0 ? result.issues.map((i) => `  - ${i}`).join('\n') : '  (none)';
      io.stdout(`${lines.join('\n')}\nissues:\n${issues}\n`);
      return 0;
    });
};
