import type { PyRandom } from '../../rng/index.js';
import { drawTarget } from '../ladder-targets.js';
import { countingSim, type GenerateOptions, type ParseResult, type TaskInstance, type TaskPlugin } from '../task.js';
import { auditResponse } from './audit.js';
import { gradeCount } from './grade.js';
import { parseLastInteger } from './parse.js';
import { simulateCount } from './simulate.js';
import { countPrompt, DEFAULT_MOTIF, MOTIFS, resolveMotif } from './stimulus.js';

/** The authors' initial output cap; the ladder doubles it up to 32768 on truncation without an answer. */
export const COUNT_MAX_OUTPUT_TOKENS = 4096;

/** sim:default's counting capacity on every counting task. */
export const COUNT_SIM_CAPACITY = 96;

export interface CountData {
  /** Number of items in the sequence (the target). */
  n: number;
  /** The tier centre L the target was drawn around. */
  center: number;
  /** Where the SCC ladder asked for this trial (lets a log-replay subject find the recorded response). */
  tier?: { phase: 'preflight' | 'expansion' | 'refine'; evaluationIndex: number };
}

/** `level` is the tier centre L; `answer` the exact count. */
export type CountInstance = TaskInstance<CountData, never, number>;

export function countInstance(n: number, center: number, seed: number, profile = 'default'): CountInstance {
  return { task: 'count', level: center, seed, profile, data: { n, center }, trace: [], answer: n };
}

/** SCC counting: "How many occurrences of "a" are in this sequence?" over n repeated items. */
export const countPlugin: TaskPlugin<CountInstance, bigint> = {
  id: 'count',
  family: 'count',
  project: 'scc',
  analysis: 'counting',
  simDefault: countingSim(COUNT_SIM_CAPACITY),
  title: 'Stable counting capacity (repeated items)',
  levels: { kind: 'length', values: [32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 20000], knob: (l) => l },
  variants: MOTIFS.map((m) => m.id),
  profiles: ['default'],
  /** One target `randint(floor(0.8L), ceil(1.2L))` around centre L = level; `options.count` fixes n instead. */
  generate(rng: PyRandom, level: number, options: GenerateOptions & { seed: number }): CountInstance {
    const fixed = options.count;
    const n = typeof fixed === 'number' && Number.isInteger(fixed) && fixed > 0 ? fixed : drawTarget(rng, level);
    return countInstance(n, level, options.seed, options.profile ?? 'default');
  },
  instanceKey: (instance) => String(instance.data.n),
  render: (instance, variant) => countPrompt(instance.data.n, resolveMotif(variant)),
  canonicalResponse: (instance) => String(instance.answer),
  parse(text: string): ParseResult<bigint> {
    const value = parseLastInteger(text);
    return value === null ? { ok: false, reason: 'no integer (or more than 4300 digits)' } : { ok: true, value };
  },
  grade: (instance, text, context) => gradeCount(instance.answer, text, context),
  simulate: (instance, rng, knobs) => simulateCount(instance.data.n, rng, knobs, DEFAULT_MOTIF),
  maxOutputTokens: () => COUNT_MAX_OUTPUT_TOKENS,
  // the shipped scc spec runs it (testCountingCapacity); the audit reads the motif the variant names
  ladder: {
    planned: true,
    audit: (text, { finishReason, transportError, variant }) =>
      auditResponse(text, { finishReason, transportError, motif: resolveMotif(variant) }),
  },
};
