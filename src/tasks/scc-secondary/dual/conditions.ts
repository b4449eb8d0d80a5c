import { PyRandom } from '../../../rng/index.js';
import { d2Task } from '../../ccb/index.js';
import { satTask } from '../../puzzles/sat/index.js';
import type { AnyTaskPlugin, TaskInstance } from '../../task.js';
import { estimatePromptTokens } from '../common.js';
import { countForTargetTokens, makeIrrelevantCode } from './controls.js';

/**
 * The dual-task design (paper Supplementary Note 7; docs/spec/scc.md §12) with ceilingbench's own secondary tasks in
 * place of BBH / CRUXEval-O / MATH-500 / MMLU-Pro, which are not available offline:
 * - `d2`: CCB D2 (register file, modulo-10 arithmetic) at N = 10 operations;
 * - `sat`: the SAT puzzle at level 2 (8 variables, 34 clauses).
 * Conditions per target count: plain count, one real-task condition per secondary, and the two controls
 * matched to a real item drawn from the pool of this count's real items (irrelevant code; a second count of b).
 */
export interface SecondarySpec {
  id: 'd2' | 'sat';
  level: number;
  plugin: AnyTaskPlugin;
}

export const SECONDARY_TASKS: readonly SecondarySpec[] = [
  { id: 'd2', level: 10, plugin: d2Task },
  { id: 'sat', level: 2, plugin: satTask },
];
export type SecondaryId = SecondarySpec['id'];

export const DUAL_CONDITIONS = [
  'plain_count',
  'real_task:d2',
  'real_task:sat',
  'irrelevant_code',
  'dual_counting',
] as const;
export type DualCondition = (typeof DUAL_CONDITIONS)[number];
export const CONTROL_TYPES = ['irrelevant_code', 'dual_counting'] as const;
export type ControlType = (typeof CONTROL_TYPES)[number];

/** The authors' dual-task seed (count_scatter_control.json). */
export const DUAL_SEED = 23;

/** A secondary item: the instance, and the task text the model sees under "Task:" (its prompt, with the JSON note). */
export interface SecondaryItem {
  itemId: string;
  task: SecondaryId;
  level: number;
  instance: TaskInstance;
  prompt: string;
}

const ITEM_NOTE =
  'Solve the following task. Put your complete answer, in exactly the output format the task asks for, in the JSON ' +
  'value as one string.';

export function secondarySpec(id: SecondaryId): SecondarySpec {
  const spec = SECONDARY_TASKS.find((s) => s.id === id);
  if (!spec)
    throw new Error(`unknown dual-task secondary '${id}'; use one of: ${SECONDARY_TASKS.map((s) => s.id).join(', ')}`);
  return spec;
}

/** Item `sample` of a secondary for one target count; instance seed = seed·10^5 + count·100 + sample. */
export function secondaryItem(id: SecondaryId, seed: number, count: number, sample: number): SecondaryItem {
  const spec = secondarySpec(id);
  const itemSeed = seed * 100_000 + count * 100 + sample;
  const instance = spec.plugin.generate(new PyRandom(itemSeed), spec.level, { seed: itemSeed }) as TaskInstance;
  const prompt = spec.plugin.render(instance);
  return {
    itemId: `${id}:L${spec.level}:${itemSeed}`,
    task: id,
    level: spec.level,
    instance,
    prompt: `${ITEM_NOTE}\n\n${prompt.system}\n\n${prompt.user}`,
  };
}

export interface ControlPayload {
  /** The real item whose estimated prompt tokens the distractor matches. */
  matchedItemId: string;
  matchedTokens: number;
  /** The generated code (irrelevant_code) or null. */
  code: string | null;
  /** Number of b markers (dual_counting) or null. */
  secondaryCount: number | null;
  distractorTokens: number;
}

/** `control_count_prompt`'s distractor for one pooled item (seed string as the authors build it). */
export function controlPayload(type: ControlType, item: SecondaryItem, seedText: string): ControlPayload {
  const matchedTokens = estimatePromptTokens(item.prompt);
  if (type === 'irrelevant_code') {
    const code = makeIrrelevantCode(matchedTokens, seedText);
    return {
      matchedItemId: item.itemId,
      matchedTokens,
      code,
      secondaryCount: null,
      distractorTokens: estimatePromptTokens(code),
    };
  }
  const secondaryCount = countForTargetTokens(matchedTokens);
  const distractorTokens = estimatePromptTokens(`b${', b'.repeat(Math.max(0, secondaryCount - 1))}`);
  return { matchedItemId: item.itemId, matchedTokens, code: null, secondaryCount, distractorTokens };
}

/** The pooled control draw: `Random(f"{seed}:pooled-control:{count}:{type}")`, sample or choice. */
export function pooledControlItems(
  pool: readonly SecondaryItem[],
  seed: number,
  count: number,
  type: ControlType,
  samples: number,
): SecondaryItem[] {
  if (pool.length === 0) throw new Error('the control pool is empty: run at least one real-task condition');
  const rng = new PyRandom(`${seed}:pooled-control:${count}:${type}`);
  if (pool.length >= samples) return rng.sample(pool, samples);
  return Array.from({ length: samples }, () => rng.choice(pool));
}
