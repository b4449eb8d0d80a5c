import type { PyRandom } from '../../rng/index.js';
import { auditResponse } from '../count/audit.js';
import { gradeCount } from '../count/grade.js';
import { parseLastInteger } from '../count/parse.js';
import { COUNT_MAX_OUTPUT_TOKENS, COUNT_SIM_CAPACITY, type CountInstance } from '../count/plugin.js';
import { COUNT_SYSTEM_PROMPT } from '../count/stimulus.js';
import { drawTarget } from '../ladder-targets.js';
import { countingSim, type GenerateOptions, type ParseResult, type TaskPlugin } from '../task.js';
import { nestedRecords, nestedUserPrompt } from './generate.js';

export function nestedInstance(matches: number, center: number, seed: number, profile = 'default'): CountInstance {
  return { task: 'nested', level: center, seed, profile, data: { n: matches, center }, trace: [], answer: matches };
}

/**
 * A wrong count from a simulated model: exact up to the capacity, then misses or double-counts a share of
 * records that grows with the overshoot. Deterministic in the RNG state.
 */
function simulateNested(matches: number, rng: PyRandom, capacity: number): string {
  if (matches <= capacity) return String(matches);
  const overshoot = (matches - capacity) / Math.max(1, capacity);
  const records = nestedRecords(matches).length;
  const slip = Math.max(1, Math.round(records * overshoot * (0.3 + 0.4 * rng.random())));
  return String(Math.max(0, matches + (rng.random() < 0.6 ? -slip : slip)));
}

/** Heterogeneous nested key-path matching (paper Supplementary Note 5), same ladder as counting. */
export const nestedPlugin: TaskPlugin<CountInstance, bigint> = {
  id: 'nested',
  family: 'count',
  project: 'scc',
  analysis: 'counting',
  simDefault: countingSim(COUNT_SIM_CAPACITY),
  title: 'Nested key-path match counting',
  levels: { kind: 'length', values: [32, 64, 128, 256, 512, 1024], knob: (l) => l },
  variants: ['default'],
  profiles: ['default'],
  generate(rng: PyRandom, level: number, options: GenerateOptions & { seed: number }): CountInstance {
    const fixed = options.count;
    const n = typeof fixed === 'number' && Number.isInteger(fixed) && fixed >= 0 ? fixed : drawTarget(rng, level);
    return nestedInstance(n, level, options.seed, options.profile ?? 'default');
  },
  instanceKey: (instance) => String(instance.data.n),
  render: (instance) => ({ system: COUNT_SYSTEM_PROMPT, user: nestedUserPrompt(instance.data.n) }),
  canonicalResponse: (instance) => String(instance.answer),
  parse(text: string): ParseResult<bigint> {
    const value = parseLastInteger(text);
    return value === null ? { ok: false, reason: 'no integer (or more than 4300 digits)' } : { ok: true, value };
  },
  grade: (instance, text, context) => gradeCount(instance.answer, text, context),
  simulate: (instance, rng, knobs) => simulateNested(instance.data.n, rng, knobs.capacity),
  maxOutputTokens: () => COUNT_MAX_OUTPUT_TOKENS,
  // a ladder a user asks for (no shipped spec runs it); the audit knows the default motif only, as the authors'
  ladder: {
    planned: false,
    audit: (text, { finishReason, transportError }) => auditResponse(text, { finishReason, transportError }),
  },
};
