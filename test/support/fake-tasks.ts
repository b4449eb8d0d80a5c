import type { PyRandom } from '../../src/rng/index.js';
import {
  type AnyTaskPlugin,
  countingSim,
  type ParseResult,
  stepwiseSim,
  type TaskInstance,
  type TaskPlugin,
} from '../../src/tasks/task.js';

/**
 * Test-only task plugins with a known, simple truth, so subjects can be tested before (and independently
 * of) the real CCB and puzzle plugins.
 *
 * `fake-steps` (family ccb): start at s, add N deltas (N = level). The answer block is a line
 * `ANSWER: <int>`. Its `simulate` carries the running total correctly with probability knobs.retention
 * per step; a slip adds +1..+3 and propagates (the total only grows, so a diverged run never lands on the
 * right answer); with probability knobs.recover a diverged run still states the right answer.
 * Hence, with recover = 0, P(correct | N) = retention^N exactly.
 */
export interface StepsData {
  start: number;
  deltas: number[];
}
export type StepsInstance = TaskInstance<StepsData, number, number>;

/** Linear parse: the last line that is exactly `ANSWER: <int>`. */
export function parseAnswerLine(text: string): ParseResult<number> {
  let value: number | undefined;
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (!trimmed.startsWith('ANSWER:')) continue;
    const rest = trimmed.slice('ANSWER:'.length).trim();
    if (/^-?\d{1,15}$/.test(rest)) value = Number(rest);
  }
  return value === undefined ? { ok: false, reason: 'no ANSWER line' } : { ok: true, value };
}

const stepsText = (totals: number[], answer: number) => `STEPS: ${totals.join(' ')}\nANSWER: ${answer}`;

export const fakeStepsPlugin: TaskPlugin<StepsInstance, number> = {
  id: 'fake-steps',
  family: 'ccb',
  project: 'fake',
  analysis: 'retention',
  simDefault: stepwiseSim(0.95),
  title: 'Fake running sum',
  levels: { kind: 'depth', values: [1, 2, 4, 8] },
  variants: ['default'],
  profiles: ['default'],
  generate(rng: PyRandom, level: number, options) {
    const start = rng.randint(0, 9);
    const deltas = Array.from({ length: level }, () => rng.randint(1, 9));
    const trace: number[] = [];
    let total = start;
    for (const d of deltas) {
      total += d;
      trace.push(total);
    }
    return {
      task: 'fake-steps',
      level,
      seed: options.seed,
      profile: 'default',
      data: { start, deltas },
      trace,
      answer: total,
    };
  },
  instanceKey: (instance) => `${instance.data.start}:${instance.data.deltas.join(',')}`,
  render: (instance) => ({
    system: 'You add numbers step by step.',
    user: `Start at ${instance.data.start}. Add ${instance.data.deltas.join(', ')}. Give every running total, then ANSWER: <total>.`,
  }),
  canonicalResponse: (instance) => stepsText(instance.trace, instance.answer),
  parse: parseAnswerLine,
  grade(instance, text) {
    const parsed = parseAnswerLine(text);
    if (!parsed.ok)
      return { family: 'ccb', kind: 'format', answerCorrect: false, kStar: -1, tfbc: false, issues: [parsed.reason] };
    const correct = parsed.value === instance.answer;
    return {
      family: 'ccb',
      kind: correct ? 'correct' : 'reasoning',
      answerCorrect: correct,
      kStar: -1,
      tfbc: false,
      issues: [],
    };
  },
  simulate(instance, rng, knobs) {
    let total = instance.data.start;
    let diverged = false;
    const totals: number[] = [];
    for (const d of instance.data.deltas) {
      total += d;
      if (rng.random() >= knobs.retention) {
        total += rng.randint(1, 3);
        diverged = true;
      }
      totals.push(total);
    }
    const answer = diverged && rng.random() < knobs.recover ? instance.answer : total;
    return stepsText(totals, answer);
  },
  maxOutputTokens: (level) => 16 + 4 * level,
};

/** `fake-count` (family count): count N words; answer = the last integer; capacity decides exactness. */
export type CountInstance = TaskInstance<{ n: number }, never, number>;

export function lastInteger(text: string): number | undefined {
  let value: number | undefined;
  let digits = '';
  for (const ch of `${text} `) {
    if (ch >= '0' && ch <= '9') digits += ch;
    else if (digits !== '') {
      value = Number(digits);
      digits = '';
    }
  }
  return value;
}

export const fakeCountPlugin: TaskPlugin<CountInstance, number> = {
  id: 'fake-count',
  family: 'count',
  project: 'fake',
  analysis: 'counting',
  simDefault: countingSim(96),
  title: 'Fake counting',
  levels: { kind: 'length', values: [8, 64, 512] },
  variants: ['default'],
  profiles: ['default'],
  generate: (_rng, level, options) => ({
    task: 'fake-count',
    level,
    seed: options.seed,
    profile: 'default',
    data: { n: level },
    trace: [],
    answer: level,
  }),
  instanceKey: (instance) => String(instance.data.n),
  render: (instance) => ({ system: '', user: `Count the words: ${'word '.repeat(instance.data.n).trim()}` }),
  canonicalResponse: (instance) => String(instance.answer),
  parse(text) {
    const value = lastInteger(text);
    return value === undefined ? { ok: false, reason: 'no integer' } : { ok: true, value };
  },
  grade(instance, text) {
    const parsed = lastInteger(text) ?? null;
    const kind = parsed === null ? 'unparsed' : parsed === instance.answer ? 'exact' : 'inexact';
    const relativeError = parsed === null ? null : Math.abs(parsed - instance.answer) / instance.answer;
    return {
      family: 'count',
      kind,
      expected: instance.answer,
      parsed,
      relativeError,
      format: 'plain',
      kStar: -1,
      tfbc: false,
      issues: [],
    };
  },
  simulate: (instance, rng, knobs) =>
    instance.data.n <= knobs.capacity ? String(instance.answer) : String(rng.choice([100, 500, 1000])),
  maxOutputTokens: () => 64,
};

export const FAKE_TASKS: AnyTaskPlugin[] = [fakeStepsPlugin, fakeCountPlugin];

export function fakeResolve(id: string): AnyTaskPlugin {
  const plugin = FAKE_TASKS.find((p) => p.id === id);
  if (!plugin) throw new Error(`fake task registry: unknown task '${id}'`);
  return plugin;
}
