import { EXAMPLE_BOUNDS, type ExampleLimit, type ExampleTrace, type TrialExample } from '../../schema/example.js';
import { promptSha256 } from '../../subjects/cache/key.js';
import { bounded, listBounded } from '../../tasks/echo.js';
import { isMissing, isSuccess, outcomeKinds } from '../../tasks/outcome.js';
import { readResponse } from '../../tasks/response.js';
import type { AnyTaskPlugin, TraceComparison } from '../../tasks/task.js';
import type { AnsweredTrial } from './run-trial.js';

/**
 * The order kinds are listed in: failures of the model first, then missing data (api, budget: no answer), then the
 * success; within each, the outcome record's kind order (a kind it does not list, last).
 */
function kindOrder(task: AnyTaskPlugin, sample: ReadonlyMap<string, AnsweredTrial[]>): string[] {
  const declared = outcomeKinds(task.family);
  const place = (kind: string): [number, number] => {
    const { outcome } = (sample.get(kind) as AnsweredTrial[])[0].record;
    const group = isSuccess(outcome) ? 2 : isMissing(outcome) ? 1 : 0;
    const i = declared.indexOf(kind);
    return [group, i === -1 ? declared.length : i];
  };
  return [...sample.keys()].sort((a, b) => {
    const [ga, ia] = place(a);
    const [gb, ib] = place(b);
    return ga - gb || ia - ib || (a < b ? -1 : a > b ? 1 : 0);
  });
}

/**
 * The cell's examples: up to `limit` trials of each outcome kind, each kind's first trials in trial order, failing
 * kinds first. Deterministic in the trials and their order; `'all'` keeps every trial.
 */
export function selectExamples(
  task: AnyTaskPlugin,
  trials: readonly AnsweredTrial[],
  limit: ExampleLimit,
): TrialExample[] {
  if (limit === 0) return [];
  const sample = new Map<string, AnsweredTrial[]>();
  for (const trial of trials) {
    const list = sample.get(trial.record.outcome.kind) ?? [];
    if (limit === 'all' || list.length < limit) list.push(trial);
    sample.set(trial.record.outcome.kind, list);
  }
  return kindOrder(task, sample).flatMap((kind) => (sample.get(kind) ?? []).map((trial) => exampleOf(task, trial)));
}

const boundedText = (text: string, max: number) => ({ chars: text.length, text: bounded(text, max) });

/** One trial as an example: the response bounded, the trace windowed around its first divergent step. */
export function exampleOf(task: AnyTaskPlugin, trial: AnsweredTrial): TrialExample {
  const { record, prompt, response, instance } = trial;
  const { outcome } = record;
  const issues = listBounded(
    outcome.issues.map((issue) => bounded(issue, EXAMPLE_BOUNDS.issue)),
    'issues',
    EXAMPLE_BOUNDS.issues,
  );
  const example: TrialExample = {
    seed: record.seed,
    trialIndex: record.trialIndex,
    kind: outcome.kind,
    promptSha256: promptSha256(prompt),
    finishReason: record.finishReason,
    kStar: outcome.kStar,
    issues,
  };
  if (response === null) return example;
  if (response.cacheKey !== undefined && /^[0-9a-f]{64}$/.test(response.cacheKey)) example.cacheKey = response.cacheKey;
  const channels = readResponse(response.text, response.reasoning);
  example.answer = boundedText(channels.answer, EXAMPLE_BOUNDS.answer);
  if (channels.sources.length > 0 || channels.unclosed) {
    example.reasoning = boundedText(channels.reasoning, EXAMPLE_BOUNDS.reasoning);
  }
  if (task.compareTrace) example.trace = traceWindow(task.compareTrace(instance, channels.answer));
  return example;
}

/** The first 1-based step where the model's state differs from the canonical one (a missing step differs); −1: none. */
export function firstDivergence(comparison: TraceComparison): number {
  const { model, canonical } = comparison;
  for (let i = 0; i < canonical.length; i++) {
    if (i >= model.length || model[i].state !== canonical[i]) return i + 1;
  }
  return -1;
}

/**
 * The comparison as an example shows it: the steps `window` either side of the first divergent one (the last
 * `window + 1` steps of the longer trace when it never diverges), every state bounded.
 */
export function traceWindow(comparison: TraceComparison, window: number = EXAMPLE_BOUNDS.window): ExampleTrace {
  const { model, canonical, answer } = comparison;
  const divergence = firstDivergence(comparison);
  const longest = Math.max(model.length, canonical.length);
  const [from, to] =
    divergence === -1
      ? [Math.max(1, longest - window), longest]
      : [Math.max(1, divergence - window), Math.min(longest, divergence + window)];
  const state = (text: string | undefined) => (text === undefined ? null : bounded(text, EXAMPLE_BOUNDS.state));
  const steps: ExampleTrace['steps'] = [];
  for (let step = from; step <= to; step++) {
    const mine = model[step - 1];
    steps.push({
      step,
      model: state(mine?.state),
      canonical: state(canonical[step - 1]),
      ...(mine?.issue !== undefined ? { issue: bounded(mine.issue, EXAMPLE_BOUNDS.issue) } : {}),
    });
  }
  return {
    modelSteps: model.length,
    canonicalSteps: canonical.length,
    divergence,
    steps,
    answer: {
      model: answer.model === null ? null : bounded(answer.model, EXAMPLE_BOUNDS.state),
      canonical: bounded(answer.canonical, EXAMPLE_BOUNDS.state),
      matches: answer.model !== null && answer.model === answer.canonical,
    },
  };
}
