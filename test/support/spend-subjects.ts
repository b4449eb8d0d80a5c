import type { TestEntry } from '../../reporters/projections/build.js';
import type { CeilingbenchRecord } from '../../src/schema/meta.js';
import type { Usage } from '../../src/schema/trial.js';
import type { Subject, SubjectIdentity, TrialRequest, TrialResponse } from '../../src/subjects/subject.js';

/** What a subject was asked and answered, request by request: the ground truth the accounts must add up to. */
export interface Seen {
  requests: number;
  /** Requests sent, as the answers counted them (retries included). */
  attempts: number;
  prompt: number;
  completion: number;
  /** Answers served from the (test) response cache. */
  hits: number;
}

export const emptySeen = (): Seen => ({ requests: 0, attempts: 0, prompt: 0, completion: 0, hits: 0 });

/** `inner`, with every answer it gives summed into `seen`. */
export function recording(inner: Subject, seen: Seen): Subject {
  return {
    identity: inner.identity,
    async answer(request) {
      const response = await inner.answer(request);
      seen.requests++;
      seen.attempts += response.attempts;
      if (response.kind === 'answer') {
        if (response.cacheHit) seen.hits++;
        seen.prompt += response.usage?.promptTokens ?? 0;
        seen.completion += response.usage?.completionTokens ?? 0;
      }
      return response;
    },
  };
}

/**
 * `inner`, except that the first call of every trial whose index is even is cut at its budget with no answer
 * (finish reason `length`), so SCC's budget rule asks it again at twice the budget.
 */
export function cutFirstCall(inner: Subject, usage: Usage = { promptTokens: 11, completionTokens: 7 }): Subject {
  const seen = new Set<string>();
  return {
    identity: inner.identity,
    async answer(request) {
      const key = `${request.taskId}|${request.instance.level}|${request.trialIndex}|${request.prompt.user}`;
      if (request.trialIndex % 2 === 0 && !seen.has(key)) {
        seen.add(key);
        return { kind: 'answer', text: '', finishReason: 'length', usage, latencyMs: 0, cacheHit: false, attempts: 1 };
      }
      return inner.answer(request);
    },
  };
}

/** A response cache in memory: an answer once given is given again for the same request, as a hit (0 attempts). */
export function memoryCache(inner: Subject, store: Map<string, TrialResponse>): Subject {
  const keyOf = (r: TrialRequest) =>
    `${r.taskId}|${r.instance.level}|${r.trialIndex}|${r.maxOutputTokens}|${r.prompt.system}|${r.prompt.user}`;
  return {
    identity: inner.identity,
    async answer(request) {
      const key = keyOf(request);
      const stored = store.get(key);
      if (stored?.kind === 'answer') return { ...stored, cacheHit: true, attempts: 0 };
      const response = await inner.answer(request);
      if (response.kind === 'answer') store.set(key, response);
      return response;
    },
  };
}

/** A passed test that left `record`, answered by `subject`. */
export const recordEntry = (record: CeilingbenchRecord, subject: SubjectIdentity): TestEntry => ({
  project: record.project,
  name: `${record.project} > ${record.task} · ${record.kind}`,
  file: `specs/${record.project}.spec.ts`,
  state: 'passed',
  errors: [],
  durationMs: 1,
  meta: { record, gates: [], subject, seed: 0 },
});

export const RUN_INFO = {
  version: '0.1.0',
  gitSha: null,
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:00:01.000Z',
  durationMs: 1000,
};
