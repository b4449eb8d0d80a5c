import { PyRandom } from '../../src/rng/index.js';
import { fakeStepsPlugin, type StepsInstance } from './fake-tasks.js';
import type { LoopbackReply, LoopbackRequest } from './loopback-server.js';

/** Recovers a fake-steps instance from its rendered prompt (the server sees only the prompt). */
export function parseStepsPrompt(user: string): StepsInstance | undefined {
  const start = user.indexOf('Start at ');
  const add = user.indexOf('. Add ');
  const end = user.indexOf('. Give');
  if (start < 0 || add < 0 || end < 0) return undefined;
  const s = Number(user.slice(start + 'Start at '.length, add));
  const deltas = user
    .slice(add + '. Add '.length, end)
    .split(', ')
    .map(Number);
  if (!Number.isInteger(s) || deltas.some((d) => !Number.isInteger(d))) return undefined;
  const trace: number[] = [];
  let total = s;
  for (const d of deltas) {
    total += d;
    trace.push(total);
  }
  return {
    task: 'fake-steps',
    level: deltas.length,
    seed: 0,
    profile: 'default',
    data: { start: s, deltas },
    trace,
    answer: total,
  };
}

/**
 * A simulated model served over HTTP: fake-steps answers with per-step retention p, seeded by the trial
 * key (so replicates differ and repeats are identical), cut at the request's token budget (4 chars a
 * token) with finish_reason 'length' — which exercises the client's budget doubling.
 */
export function simStepsAnswerer(retention: number, padding = 0): (request: LoopbackRequest) => LoopbackReply {
  return (request) => {
    const user = request.messages.at(-1)?.content ?? '';
    const instance = parseStepsPrompt(user);
    if (!instance) return { text: 'I cannot read this prompt.' };
    const rng = new PyRandom(`loopback|${request.trialKey}`);
    const text = `${'thinking '.repeat(padding)}${fakeStepsPlugin.simulate(instance, rng, { retention, recover: 0, capacity: Number.POSITIVE_INFINITY })}`;
    const maxChars = (request.maxTokens ?? Number.POSITIVE_INFINITY) * 4;
    return text.length > maxChars ? { text: text.slice(0, maxChars), finishReason: 'length' } : { text };
  };
}
