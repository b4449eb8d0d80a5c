import type { CellSamples } from '../../schema/cell.js';
import type { SubjectIdentity } from '../../schema/subject.js';
import { isMissing } from '../../tasks/outcome.js';
import type { AnyTaskPlugin } from '../../tasks/task.js';
import type { AnsweredTrial } from './run-trial.js';

/** The subject was asked at temperature 0: its configured request parameters say so (openai subjects default to 0). */
export const asksAtTemperatureZero = (identity: SubjectIdentity): boolean => identity.parameters.temperature === 0;

/** What makes two responses the same sample: everything the grader and the record could see of them. */
const responseKey = (a: AnsweredTrial): string =>
  JSON.stringify([a.response?.text ?? null, a.response?.reasoning ?? null, a.record.finishReason]);

/**
 * Replicates that cannot differ are one sample (docs/outputs.md, "Replicates"). When several trials of a cell asked
 * the same instance (a puzzle whose level fixes the instance, or a small instance space replicated round-robin) and
 * every one of them came back with the byte-identical response, the sampling was deterministic — the subject was
 * asked at temperature 0, or the answers show it — and the replicates are one observation, however many there are.
 * Replicates of an instance that did differ are independent draws of the subject and stay separate samples: no
 * response is dropped because another one resembles it, so a share is never moved toward the rarer answer.
 *
 * Returns the outcome tally of the distinct samples among the answered trials (api and budget trials are in none),
 * or undefined when every answered trial is a sample of its own (nothing to say).
 */
export function distinctSamples(
  task: AnyTaskPlugin,
  answered: readonly AnsweredTrial[],
  identity: SubjectIdentity,
): CellSamples | undefined {
  const groups = new Map<string, AnsweredTrial[]>();
  for (const a of answered) {
    if (isMissing(a.record.outcome) || a.response === null) continue;
    const key = task.instanceKey(a.instance);
    const group = groups.get(key);
    if (group) group.push(a);
    else groups.set(key, [a]);
  }
  const outcomes: Record<string, number> = {};
  let trials = 0;
  let distinct = 0;
  for (const group of groups.values()) {
    trials += group.length;
    const same = group.length > 1 && group.every((a) => responseKey(a) === responseKey(group[0]));
    const kept = same ? group.slice(0, 1) : group;
    distinct += kept.length;
    for (const a of kept) outcomes[a.record.outcome.kind] = (outcomes[a.record.outcome.kind] ?? 0) + 1;
  }
  if (distinct === trials) return undefined;
  return {
    reason: asksAtTemperatureZero(identity) ? 'temperature 0' : 'identical answers',
    distinct,
    trials,
    outcomes,
  };
}
