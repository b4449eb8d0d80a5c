import { boundIssues } from './echo.js';
import { plainNotation } from './notation.js';
import type { TrialOutcome } from './outcome.js';
import type { ReasoningDelimiter } from './reasoning-channels.js';
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
  channels: ResponseChannels = readResponse(text, null, context?.reasoningDelimiters),
): TrialOutcome {
  const outcome: TrialOutcome = plugin.grade(instance, plainNotation(channels.answer), context);
  const issues = boundIssues(channels.unclosed ? [UNCLOSED, ...outcome.issues] : outcome.issues);
  return issues === outcome.issues ? outcome : { ...outcome, issues };
}

/** A wrapped plugin's own plugin and the user's delimiters it reads beside the built-in ones. */
const channelled = new WeakMap<AnyTaskPlugin, { raw: AnyTaskPlugin; delimiters: readonly ReasoningDelimiter[] }>();

/**
 * The plugin as the registry hands it out: `grade` and `parse` take the whole response and read only its
 * final answer. One wrapper for every family, so a new family gets the reasoning channel for free. With
 * `delimiters` (a run's `reasoningDelimiters`), the wrapper also sets those blocks aside; wrapping a wrapped
 * plugin adds them to the ones it has.
 */
export function withResponseChannels(
  plugin: AnyTaskPlugin,
  delimiters: readonly ReasoningDelimiter[] = [],
): AnyTaskPlugin {
  const known = channelled.get(plugin);
  if (known !== undefined && delimiters.length === 0) return plugin;
  const raw = known?.raw ?? plugin;
  const all = [...(known?.delimiters ?? []), ...delimiters];
  const wrapped: AnyTaskPlugin = {
    ...raw,
    parse: (text: string): ParseResult<unknown> => raw.parse(plainNotation(readResponse(text, null, all).answer)),
    grade: (instance, text, context) =>
      gradeFinalAnswer(raw, instance, text, {
        ...context,
        reasoningDelimiters: [...all, ...(context?.reasoningDelimiters ?? [])],
      }),
  };
  channelled.set(wrapped, { raw, delimiters: all });
  return wrapped;
}

/** The two channels of a response as `plugin` reads them (with the delimiters it was wrapped with). */
export function responseChannels(
  plugin: AnyTaskPlugin,
  text: string,
  providerReasoning?: string | null,
): ResponseChannels {
  return readResponse(text, providerReasoning, channelled.get(plugin)?.delimiters ?? []);
}

/**
 * Grades a whole response with any plugin, registered or not, setting reasoning aside exactly once (with the
 * delimiters it was wrapped with and the context's); a caller that has already read the response's channels (to
 * record its reasoning, responseChannels) passes them, so the text is read once.
 */
export function gradeResponse(
  plugin: AnyTaskPlugin,
  instance: Parameters<AnyTaskPlugin['grade']>[0],
  text: string,
  context?: GradeContext,
  channels?: ResponseChannels,
): TrialOutcome {
  const known = channelled.get(plugin);
  const delimiters = [...(known?.delimiters ?? []), ...(context?.reasoningDelimiters ?? [])];
  const read = channels ?? readResponse(text, null, delimiters);
  return gradeFinalAnswer(known?.raw ?? plugin, instance, text, context, read);
}
