import { boundIssues } from './echo.js';
import type { TrialOutcome } from './outcome.js';
import { type ResponseChannels, readResponse } from './response.js';
import type { AnyTaskPlugin, GradeContext, ParseResult } from './task.js';

const UNCLOSED = 'the output ended inside an unclosed reasoning block: no final answer after it';

/**
 * Grades a whole response: reasoning blocks and whitespace variants are removed first (readResponse), so
 * the family's grader sees the final answer text only. An unclosed reasoning block leaves no answer: the
 * family grades the empty text (CCB Truncation at finish reason `length`, Format otherwise; puzzle
 * Collapse; count Unparsed) — never a success. The issues come back within bounds (echo.ts, boundIssues).
 */
export function gradeFinalAnswer(
  plugin: AnyTaskPlugin,
  instance: Parameters<AnyTaskPlugin['grade']>[0],
  text: string,
  context?: GradeContext,
  channels: ResponseChannels = readResponse(text),
): TrialOutcome {
  const outcome: TrialOutcome = plugin.grade(instance, channels.answer, context);
  const issues = boundIssues(channels.unclosed ? [UNCLOSED, ...outcome.issues] : outcome.issues);
  return issues === outcome.issues ? outcome : { ...outcome, issues };
}

/** Each wrapped plugin, mapped to the family's own plugin it wraps. */
const channelled = new WeakMap<AnyTaskPlugin, AnyTaskPlugin>();

/**
 * The plugin as the registry hands it out: `grade` and `parse` take the whole response and read only its
 * final answer. One wrapper for every family, so a new family gets the reasoning channel for free.
 */
export function withResponseChannels(plugin: AnyTaskPlugin): AnyTaskPlugin {
  if (channelled.has(plugin)) return plugin;
  const wrapped: AnyTaskPlugin = {
    ...plugin,
    parse: (text: string): ParseResult<unknown> => plugin.parse(readResponse(text).answer),
    grade: (instance, text, context) => gradeFinalAnswer(plugin, instance, text, context),
  };
  channelled.set(wrapped, plugin);
  return wrapped;
}

/**
 * Grades a whole response with any plugin, registered or not, setting reasoning aside exactly once; a caller that
 * has already read the response's channels (to record its reasoning) passes them, so the text is read once.
 */
export function gradeResponse(
  plugin: AnyTaskPlugin,
  instance: Parameters<AnyTaskPlugin['grade']>[0],
  text: string,
  context?: GradeContext,
  channels: ResponseChannels = readResponse(text),
): TrialOutcome {
  return gradeFinalAnswer(channelled.get(plugin) ?? plugin, instance, text, context, channels);
}
