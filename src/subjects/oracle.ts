import type { TaskResolver } from './sim/sim-subject.js';
import type { Subject, TrialRequest, TrialResponse } from './subject.js';
import { estimateUsage } from './usage-estimate.js';

/**
 * The explicit-state, tool-augmented ceiling: answers every instance with the task's canonical response.
 * It ignores the output budget on purpose — the ceiling is what a perfect solver writes.
 */
export function createOracleSubject(resolveTask: TaskResolver): Subject {
  return {
    identity: { spec: 'oracle', kind: 'oracle', parameters: {} },
    async answer(request: TrialRequest): Promise<TrialResponse> {
      if (request.signal?.aborted)
        return { kind: 'error', error: 'aborted before answering', latencyMs: 0, attempts: 0 };
      const text = resolveTask(request.taskId).canonicalResponse(request.instance);
      return {
        kind: 'answer',
        text,
        finishReason: 'stop',
        usage: estimateUsage(request.prompt, text),
        latencyMs: 0,
        cacheHit: false,
        attempts: 1,
      };
    },
  };
}
