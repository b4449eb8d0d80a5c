import { z } from 'zod';
import { errorCodeOf } from '../../errors.js';
import { responseChannels } from '../../tasks/final-answer.js';
import { apiOutcome, type TrialOutcome } from '../../tasks/outcome.js';
import type { AnyTaskPlugin, FinishReason } from '../../tasks/task.js';
import { type InstanceArgs, resolveInstance } from './generate.js';

/** The finish reasons a line may carry: the OpenAI API's, or null when unknown. */
const LINE_FINISH_REASONS = ['stop', 'length', 'content_filter', 'tool_calls', 'function_call'] as const;

const instanceArg = z.union([z.number().int(), z.string().min(1)]).optional();

/**
 * One line of a `--responses` file: a model's response with why it stopped and the provider's reasoning field,
 * and, optionally, the instance it answered (`depth` or `level`, `seed`, `profile`; the command's flags fill in
 * what a line leaves out). Other keys (ids, timestamps of a log) are ignored.
 */
export const responseLineSchema = z.object({
  response: z.string(),
  finish_reason: z.enum(LINE_FINISH_REASONS).nullable().optional(),
  reasoning_content: z.string().nullable().optional(),
  /** OpenRouter's name for the same field. */
  reasoning: z.string().nullable().optional(),
  depth: instanceArg,
  level: instanceArg,
  seed: instanceArg,
  profile: z.string().min(1).optional(),
});

/** Why a line was not graded: not JSON, not a response object, or an instance that cannot be generated. */
export const LINE_ERRORS = ['json', 'shape', 'instance'] as const;

export type GradedLine =
  | {
      line: number;
      outcome: TrialOutcome['kind'];
      kStar?: number;
      tfbc?: boolean;
      answerCorrect?: boolean;
      issues: string[];
      reasoning?: { chars: number; sources: string[]; unclosed: boolean };
    }
  | { line: number; error: (typeof LINE_ERRORS)[number]; message: string };

/** The grade as `grade` prints it: a stepwise outcome also says where the trace diverged and the answer's truth. */
export function gradeSummary(outcome: TrialOutcome) {
  return 'answerCorrect' in outcome
    ? {
        outcome: outcome.kind,
        kStar: outcome.kStar,
        tfbc: outcome.tfbc,
        answerCorrect: outcome.answerCorrect,
        issues: outcome.issues,
      }
    : { outcome: outcome.kind, issues: outcome.issues };
}

const firstIssue = (error: z.ZodError): string => {
  const issue = error.issues[0];
  return issue ? `${issue.path.join('.') || '(line)'}: ${issue.message}` : 'not a response object';
};

/**
 * Grades every non-blank line of a JSONL file on its own: a line that is not JSON, not a response object or names
 * an instance that cannot be generated is a classified error for that line only, never the file's.
 */
export function gradeLines(plugin: AnyTaskPlugin, text: string, flags: InstanceArgs): GradedLine[] {
  const results: GradedLine[] = [];
  const lines = text.replace(/^\ufeff/, '').split(/\r\n|\r|\n/);
  lines.forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      results.push({ line, error: 'json', message: `not valid JSON: ${(error as Error).message}` });
      return;
    }
    const parsed = responseLineSchema.safeParse(value);
    if (!parsed.success) {
      results.push({ line, error: 'shape', message: firstIssue(parsed.error) });
      return;
    }
    const entry = parsed.data;
    const own = Object.fromEntries(
      Object.entries({ depth: entry.depth, level: entry.level, seed: entry.seed, profile: entry.profile }).filter(
        ([, v]) => v !== undefined,
      ),
    );
    // a line naming its own depth or level replaces the flags' axis (both flags may not be given with one)
    const args: InstanceArgs =
      entry.depth !== undefined || entry.level !== undefined
        ? { ...flags, depth: undefined, level: undefined, ...own }
        : { ...flags, ...own };
    let instance: ReturnType<typeof resolveInstance>['instance'];
    try {
      instance = resolveInstance(plugin.id, args).instance;
    } catch (error) {
      if (errorCodeOf(error) === undefined) throw error;
      results.push({ line, error: 'instance', message: (error as Error).message });
      return;
    }
    const finishReason: FinishReason = entry.finish_reason ?? null;
    const providerReasoning = entry.reasoning_content ?? entry.reasoning ?? null;
    // the provider's moderation removed the output: missing data (api), as in a sweep (run-trial.ts)
    const outcome =
      finishReason === 'content_filter'
        ? apiOutcome(plugin.family, "provider content filter: finish_reason 'content_filter'", instance.answer)
        : plugin.grade(instance, entry.response, { finishReason });
    const channels = responseChannels(plugin, entry.response, providerReasoning);
    const reasoning =
      channels.sources.length > 0 || channels.unclosed
        ? { reasoning: { chars: channels.reasoning.length, sources: channels.sources, unclosed: channels.unclosed } }
        : {};
    results.push({ line, ...gradeSummary(outcome), ...reasoning });
  });
  return results;
}
