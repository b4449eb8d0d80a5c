import type {
  CountOutcome,
  FormatCategory,
  LadderAuditContext,
  ParseResult,
  TaskInstance,
  TaskPlugin,
} from '../../src/index.js';
import type { PyRandom } from '../../src/rng/index.js';
import { countingSim } from '../../src/tasks/task.js';

/**
 * A counting family that exists only in this folder: count the words of a list. It proves an SCC ladder is a
 * declaration: nothing outside test/ladder-family names it (`wordtally`), yet its one spec runs the counting-capacity ladder,
 * its gate, the reports and the spend plan like SCC counting.
 */
export interface WordtallyData {
  n: number;
  /** The tier centre the ladder asked around. */
  center: number;
  words: string[];
}
export type WordtallyInstance = TaskInstance<WordtallyData, never, number>;

const VOCABULARY = ['apple', 'river', 'stone', 'cloud', 'lamp', 'tiger', 'maple', 'quartz', 'violet', 'ember'];

/** The last integer of the text, or none (at most 15 digits: a longer one is read but cannot be scored). */
function lastInteger(text: string): ParseResult<bigint> {
  const matches = text.match(/-?\d+/g);
  const last = matches?.[matches.length - 1];
  return last === undefined ? { ok: false, reason: 'no integer' } : { ok: true, value: BigInt(last) };
}

/** A small format audit of the whole response (the SCC trial keeps one category per answer). */
function audit(text: string, context: Pick<LadderAuditContext, 'finishReason' | 'transportError'>): FormatCategory {
  const trimmed = text.trim();
  if (/^[+-]?\d+$/.test(trimmed)) return 'single-integer';
  if (trimmed === '')
    return context.transportError ? 'api' : context.finishReason === 'length' ? 'token-limit' : 'blank';
  if (!/\d/.test(trimmed)) return context.finishReason === 'length' ? 'token-limit' : 'no-number';
  return 'extra-prose';
}

function grade(
  instance: WordtallyInstance,
  text: string,
  context: { finishReason?: LadderAuditContext['finishReason'] },
) {
  const expected = instance.answer;
  const base = {
    family: 'count' as const,
    expected,
    format: audit(text, { finishReason: context.finishReason ?? null, transportError: false }),
    kStar: -1,
    tfbc: false,
  };
  const reading = lastInteger(text);
  const value = reading.ok ? Number(reading.value) : Number.NaN;
  if (!reading.ok || !Number.isSafeInteger(value)) {
    const issue = reading.ok ? 'the integer is too long to score' : reading.reason;
    return { ...base, kind: 'unparsed', parsed: null, relativeError: null, issues: [issue] } satisfies CountOutcome;
  }
  const relativeError = Math.abs(value - expected) / expected;
  const kind = value === expected ? 'exact' : 'inexact';
  const issues = kind === 'exact' ? [] : [`counted ${value}, expected ${expected}`];
  return { ...base, kind, parsed: value, relativeError, issues } satisfies CountOutcome;
}

export const wordtallyTask: TaskPlugin<WordtallyInstance, bigint> = {
  id: 'wordtally',
  family: 'count',
  project: 'wordtally',
  analysis: 'counting',
  simDefault: countingSim(48),
  title: 'Word counting (a ladder family defined in test/)',
  levels: { kind: 'length', values: [8, 16, 32, 64] },
  variants: ['plain'],
  profiles: ['default'],
  generate(rng: PyRandom, level: number, options) {
    const fixed = options.count;
    const n =
      typeof fixed === 'number' && Number.isInteger(fixed) && fixed > 0
        ? fixed
        : rng.randint(Math.floor(0.8 * level), Math.ceil(1.2 * level));
    const words = Array.from({ length: n }, () => rng.choice(VOCABULARY));
    return {
      task: 'wordtally',
      level,
      seed: options.seed,
      profile: 'default',
      data: { n, center: level, words },
      trace: [],
      answer: n,
    };
  },
  instanceKey: (instance) => instance.data.words.join(' '),
  render: (instance) => ({
    system: 'You count words exactly. Return only one integer.',
    user: `How many words are in this list?\n\n${instance.data.words.join(' ')}`,
  }),
  canonicalResponse: (instance) => String(instance.answer),
  parse: lastInteger,
  grade,
  simulate(instance, rng, knobs) {
    // exact up to the capacity, then short by a share of the overshoot
    const n = instance.data.n;
    if (n <= knobs.capacity) return String(n);
    return String(n - Math.max(1, Math.round((n - knobs.capacity) * (0.5 + rng.random()))));
  },
  maxOutputTokens: () => 64,
  ladder: { planned: true, audit },
};
