import type { AnyTaskPlugin } from '../../tasks/task.js';
import type { SimSpec } from '../spec.js';
import type { Subject, SubjectIdentity, TrialRequest, TrialResponse } from '../subject.js';
import { applyFaults } from './faults.js';
import { knobsFor } from './profiles.js';
import { trialRng } from './trial-rng.js';
import { simUsage } from './usage.js';

export type TaskResolver = (taskId: string) => AnyTaskPlugin;

export interface SimSubjectOptions {
  /** The spec string as the user gave it (for the identity). */
  specText: string;
  /** Resolves task plugins at answer time; default: the task registry. */
  resolveTask: TaskResolver;
  /** Used when the spec has no `seed` parameter (e.g. a run-level seed); default 0. */
  seed?: number;
}

/**
 * A simulated model with known truth. It answers in each task's exact response format (the task's own
 * `simulate` does the per-step behaviour with the profile's knobs), then applies the subject's format and
 * truncation faults (from level `faultsFrom` on, when given) and the output budget. Usage is what a model would
 * bill (usage.ts: the prompt tokenized, the output at the paper's per-depth mean length); latency is 0.
 */
export function createSimSubject(spec: SimSpec, options: SimSubjectOptions): Subject {
  const seed = spec.params.seed ?? options.seed ?? 0;
  const identity: SubjectIdentity = {
    spec: options.specText,
    kind: 'sim',
    parameters: { profile: spec.profile, ...spec.params, seed },
  };
  return {
    identity,
    async answer(request: TrialRequest): Promise<TrialResponse> {
      if (request.signal?.aborted)
        return { kind: 'error', error: 'aborted before answering', latencyMs: 0, attempts: 0 };
      const task = options.resolveTask(request.taskId);
      const raw = task.simulate(request.instance, trialRng(seed, 'simulate', request), knobsFor(spec, task));
      // below `faultsFrom` the faults are off; the fault stream is drawn all the same (applyFaults)
      const faulty = spec.params.faultsFrom === undefined || request.instance.level >= spec.params.faultsFrom;
      const output = applyFaults(
        raw,
        trialRng(seed, 'faults', request),
        faulty ? spec.params : { format: 0, trunc: 0 },
        (text) => task.parse(text).ok,
        request.maxOutputTokens,
      );
      return {
        kind: 'answer',
        text: output.text,
        finishReason: output.finishReason,
        usage: simUsage(task, request, output),
        latencyMs: 0,
        cacheHit: false,
        attempts: 1,
      };
    },
  };
}
