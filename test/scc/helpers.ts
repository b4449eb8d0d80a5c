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

/** Outcomes of an arbitrary answer function, drawn per trial in this order of weights. */
export interface ArbitraryModel {
  /** Weight of an exact answer. */
  exact: number;
  /** Weight of a wrong answer, off by up to `spread` (relative). */
  wrong: number;
  spread: number;
  /** Weight of a blank answer (unparsed). */
  blank: number;
  /** Weight of a transport error. */
  error: number;
  /** Probability that an answer is cut at the budget without an integer below a per-trial budget (maybe never reached). */
  cut: number;
  /** The preflight (level 8) answers as the other trials, or always blank, or always errors. */
  preflight: 'same' | 'blank' | 'error';
  salt: number;
}

const CUT_UNTIL = [8192, 16384, 32768, Number.POSITIVE_INFINITY];

/**
 * A test subject with no structure: every trial's outcome is a hash of (salt, level, trial index, target), so
 * tiers pass or fail in any pattern along the ladder. Only the budget rule sees the budget: an answer cut below
 * its trial's threshold is asked again at twice the budget (past the ceiling: the retry limit, abort-worthy).
 */
export function arbitrarySubject(model: ArbitraryModel, log: TrialRequest[] = []): Subject {
  return {
    identity: { spec: 'arbitrary', kind: 'sim', parameters: {} },
    async answer(request: TrialRequest): Promise<TrialResponse> {
      log.push(request);
      const n = request.instance.answer as number;
      const { level } = request.instance;
      const u = (name: string) => unit(model.salt, name, level, request.trialIndex, n);
      const base = { latencyMs: 0, cacheHit: false, attempts: 1, usage: { promptTokens: 2 * n, completionTokens: 5 } };
      const error = { kind: 'error' as const, error: 'ServerError: 503', latencyMs: 0, attempts: 1 };
      if (level === 8 && model.preflight === 'blank')
        return { kind: 'answer', text: '', finishReason: 'stop', ...base };
      if (level === 8 && model.preflight === 'error') return error;
      const cutUntil = CUT_UNTIL[Math.floor(u('cut-until') * CUT_UNTIL.length)];
      if (u('cut') < model.cut && request.maxOutputTokens < cutUntil)
        return { kind: 'answer', text: 'Counting one by one', finishReason: 'length', ...base };
      const total = model.exact + model.wrong + model.blank + model.error;
      const pick = u('pick') * total;
      if (pick < model.exact) return { kind: 'answer', text: String(n), finishReason: 'stop', ...base };
      if (pick < model.exact + model.wrong) {
        const off = Math.round(n * model.spread * (2 * u('off') - 1));
        return { kind: 'answer', text: String(Math.max(0, n + off)), finishReason: 'stop', ...base };
      }
      if (pick < model.exact + model.wrong + model.blank)
        return { kind: 'answer', text: '', finishReason: 'stop', ...base };
      return error;
    },
  };
}

/** `subject` with a preflight (level 8) that always answers correctly. */
export function withPassingPreflight(subject: Subject): Subject {
  return {
    identity: subject.identity,
    answer: (request) =>
      request.instance.level === 8
        ? Promise.resolve({
            kind: 'answer',
            text: '8',
            finishReason: 'stop',
            latencyMs: 0,
            cacheHit: false,
            attempts: 1,
            usage: null,
          })
        : subject.answer(request),
  };
}
