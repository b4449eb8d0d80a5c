import type { PyRandom } from '../../../rng/index.js';
import { COUNT_SIM_CAPACITY } from '../../count/plugin.js';
import type { CountOutcome } from '../../outcome.js';
import { countingSim, type GenerateOptions, type GradeContext, type ParseResult, type TaskPlugin } from '../../task.js';
import { JSON_SYSTEM_INSTRUCTION } from '../common.js';
import { applyFinalObjectRules } from '../final-answer.js';
import { extractJsonObject, type JsonObject } from '../json-extract.js';
import { fieldOutcome } from '../outcome.js';
import {
  controlPayload,
  DUAL_CONDITIONS,
  DUAL_SEED,
  type DualCondition,
  type SecondaryId,
  secondaryItem,
  secondarySpec,
} from './conditions.js';
import type { DualData, DualInstance } from './instance.js';
import { dualUserPrompt } from './prompts.js';
import { scoreDualResponse } from './score.js';
import { simulateDual } from './simulate.js';

export type { DualData, DualInstance };

/** The authors' first output cap for this runner (retry cap 8192; a subject applies its own ceiling). */
export const DUAL_MAX_OUTPUT_TOKENS = 2048;

export function dualAnswer(data: DualData): Record<string, unknown> {
  if (data.condition === 'plain_count' || data.condition === 'irrelevant_code') return { count: data.count };
  if (data.condition === 'dual_counting') return { count: data.count, secondary_count: data.control?.secondaryCount };
  if (!data.item) throw new Error(`${data.condition} needs its secondary item`);
  const canonical = secondarySpec(data.item.task).plugin.canonicalResponse(data.item.instance);
  return { task_answer: canonical, count: data.count };
}

export function dualInstance(data: DualData, seed: number, profile = 'default'): DualInstance {
  return { task: 'dual', level: data.count, seed, profile, data, trace: [], answer: dualAnswer(data) };
}

const isCondition = (value: unknown): value is DualCondition =>
  typeof value === 'string' && (DUAL_CONDITIONS as readonly string[]).includes(value);

/** A single dual instance outside the assay's pooled design: controls match the d2 item of the same sample. */
export function standaloneDualData(condition: DualCondition, count: number, sample: number, seed: number): DualData {
  const secondary: SecondaryId = condition === 'real_task:sat' ? 'sat' : 'd2';
  const item = condition === 'plain_count' ? null : secondaryItem(secondary, seed, count, sample);
  const control =
    item && (condition === 'irrelevant_code' || condition === 'dual_counting')
      ? controlPayload(condition, item, `${seed}:${count}:pooled:${condition}:${item.itemId}:${sample}`)
      : null;
  return { condition, count, sample, item, control };
}

/** Dual-task interference (paper Supplementary Note 7): a marker count and a secondary task in one JSON answer. */
export const dualPlugin: TaskPlugin<DualInstance, JsonObject> = {
  id: 'dual',
  family: 'count',
  project: 'scc',
  analysis: 'counting',
  simDefault: countingSim(COUNT_SIM_CAPACITY),
  title: 'Marker count under a secondary task (dual-task interference)',
  levels: { kind: 'length', values: [32, 48, 64, 80, 96], knob: (l) => l },
  variants: ['default'],
  profiles: ['default'],
  /** Options: `condition` (default: drawn), `sample` (default 0), `dualSeed` (default 23). */
  generate(rng: PyRandom, level: number, options: GenerateOptions & { seed: number }): DualInstance {
    const condition = isCondition(options.condition) ? options.condition : rng.choice(DUAL_CONDITIONS);
    const sample = typeof options.sample === 'number' && Number.isInteger(options.sample) ? options.sample : 0;
    const dualSeed = typeof options.dualSeed === 'number' ? options.dualSeed : DUAL_SEED;
    const data = standaloneDualData(condition, level, sample, dualSeed);
    return dualInstance(data, options.seed, options.profile ?? 'default');
  },
  instanceKey: (i) => `${i.data.condition}:${i.data.count}:${i.data.item?.itemId ?? '-'}`,
  render: (i) => ({ system: JSON_SYSTEM_INSTRUCTION, user: dualUserPrompt(i.data) }),
  canonicalResponse: (i) => JSON.stringify(i.answer),
  parse(text: string): ParseResult<JsonObject> {
    const extraction = extractJsonObject(text);
    return extraction.ok ? { ok: true, value: extraction.value } : { ok: false, reason: extraction.reason };
  },
  grade(instance: DualInstance, text: string, context?: GradeContext): CountOutcome {
    const score = scoreDualResponse(instance.data, text);
    const failures: string[] = [];
    if (!score.countCorrect) failures.push(`count ${score.parsedCount ?? 'missing'}, expected ${instance.data.count}`);
    if (score.secondaryCorrect === false)
      failures.push(
        `secondary_count ${score.parsedSecondaryCount ?? 'missing'}, expected ${instance.data.control?.secondaryCount}`,
      );
    if (score.taskCorrect === false)
      failures.push(`task_answer wrong: ${score.taskIssues.join('; ') || 'not accepted'}`);
    const outcome = fieldOutcome({
      expected: instance.data.count,
      parsed: score.parsedCount,
      parseable: score.parseable && score.parsedCount !== null,
      strictJson: score.strictJson,
      failures,
    });
    return applyFinalObjectRules(outcome, text, context);
  },
  simulate: (i, rng, knobs) => simulateDual(i.data, rng, knobs),
  maxOutputTokens: () => DUAL_MAX_OUTPUT_TOKENS,
};
