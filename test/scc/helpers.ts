import { createHash } from 'node:crypto';
import type { Subject, TrialRequest, TrialResponse } from '../../src/subjects/subject.js';

/** A uniform number in [0, 1) that depends only on the key: answers never depend on scheduling. */
export function unit(...key: (string | number)[]): number {
  const digest = createHash('sha256').update(key.join('|')).digest();
  return digest.readUInt32BE(0) / 2 ** 32;
}

export interface ScriptedModel {
  capacity: number;
  /** Probability of an unparsed (blank) answer past capacity. */
  blank: number;
  /** Probability that an answer needs one budget doubling (cut at 4096 without an integer). */
  cut: number;
  salt: number;
  /** Per-request latency in ms (0: resolve at once); honours the abort signal. */
  latencyMs?: number;
}

/** A test subject with known truth: exact below capacity, relative error ∝ overshoot above it. */
export function scriptedSubject(model: ScriptedModel, log: TrialRequest[] = []): Subject {
  return {
    identity: { spec: `scripted:${model.capacity}`, kind: 'sim', parameters: {} },
    async answer(request: TrialRequest): Promise<TrialResponse> {
      log.push(request);
      const n = request.instance.answer as number;
      const { level } = request.instance;
      const u = (name: string) => unit(model.salt, name, level, request.trialIndex, n);
      if (model.latencyMs) {
        await new Promise<void>((resolve, reject) => {
          const onAbort = () => {
            clearTimeout(timer);
            reject(new DOMException('aborted', 'AbortError'));
          };
          const timer = setTimeout(() => {
            request.signal?.removeEventListener('abort', onAbort);
            resolve();
          }, model.latencyMs);
          request.signal?.addEventListener('abort', onAbort, { once: true });
        });
      }
      const base = { latencyMs: 0, cacheHit: false, attempts: 1, usage: { promptTokens: 2 * n, completionTokens: 3 } };
      if (u('cut') < model.cut && request.maxOutputTokens < 8192) {
        return { kind: 'answer', text: 'Let me count them one by one', finishReason: 'length', ...base };
      }
      if (n <= model.capacity) return { kind: 'answer', text: String(n), finishReason: 'stop', ...base };
      if (u('blank') < model.blank) return { kind: 'answer', text: '', finishReason: 'stop', ...base };
      const overshoot = (n - model.capacity) / model.capacity;
      const wrong = Math.round(n * (1 - overshoot * 2 * u('err')));
      return { kind: 'answer', text: String(wrong), finishReason: 'stop', ...base };
    },
  };
}
