import { readFileSync } from 'node:fs';
import type { FinishReason } from '../../tasks/task.js';
import type { RegisterCommand } from '../command.js';
import { UsageError } from '../errors.js';
import { type InstanceArgs, resolveInstance, withInstanceOptions } from './generate.js';

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
function readResponse(value: unknown): string {
  if (value === undefined)
    throw new UsageError('missing --response <file|->; pass the model output file, or - for stdin');
  const path = value === true || value === '-' ? 0 : String(value);
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new UsageError(
      `cannot read --response '${path === 0 ? '-' : path}': ${reason}; pass a readable file or - for stdin`,
    );
  }
}

export const registerGrade: RegisterCommand = (cli, io) => {
  withInstanceOptions(cli.command('grade <task>', 'Grade a model response against one generated instance'))
    .option('--finish-reason <reason>', 'Why generation stopped: stop | length')
    .option('--response [file]', 'The response text: a file, or - for stdin')
    .option('--json', 'Print one JSON object')
    .example('ceilingbench grade d1 --depth 5 --seed 50000 --response answer.txt --json')
    .action((task: string, options: InstanceArgs & { finishReason?: unknown; response?: unknown; json?: boolean }) => {
      const finishReason = finishReasonArg(options.finishReason);
      const { plugin, instance } = resolveInstance(task, options);
      const text = readResponse(options.response);
      const outcome = plugin.grade(instance, text, { finishReason });
      // a stepwise outcome also says where the trace diverged and whether the final answer was right
      const result =
        'answerCorrect' in outcome
          ? {
              outcome: outcome.kind,
              kStar: outcome.kStar,
              tfbc: outcome.tfbc,
              answerCorrect: outcome.answerCorrect,
              issues: outcome.issues,
            }
          : { outcome: outcome.kind, issues: outcome.issues };
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
