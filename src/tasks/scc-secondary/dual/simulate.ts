import type { PyRandom } from '../../../rng/index.js';
import type { SimKnobs } from '../../task.js';
import { simulatedCount } from '../sim-count.js';
import { type DualCondition, secondarySpec } from './conditions.js';
import type { DualData } from './instance.js';

/**
 * A simulated dual-tasker. Each condition takes a share of the counting state: the count is simulated with an
 * effective capacity c / (1 + load). The loads are ceilingbench's assumption, ordered as the paper reports
 * (Supplementary Note 7: real reasoning tasks interfere most, a second count less, irrelevant code least):
 */
export const SIM_LOADS: Record<DualCondition, number> = {
  plain_count: 0,
  irrelevant_code: 0.1,
  dual_counting: 0.3,
  'real_task:sat': 0.5,
  'real_task:d2': 0.7,
};

/** The b count shares the same reduced capacity; the secondary task is the task's own simulation with the knobs. */
export function simulateDual(data: DualData, rng: PyRandom, knobs: SimKnobs): string {
  const capacity = Math.max(1, knobs.capacity) / (1 + SIM_LOADS[data.condition]);
  const payload: Record<string, unknown> = {};
  if (data.item && data.condition.startsWith('real_task')) {
    payload.task_answer = secondarySpec(data.item.task).plugin.simulate(data.item.instance, rng, knobs);
  }
  payload.count = simulatedCount(data.count, capacity, rng);
  const b = data.control?.secondaryCount;
  if (data.condition === 'dual_counting' && typeof b === 'number')
    payload.secondary_count = simulatedCount(b, capacity, rng);
  return JSON.stringify(payload);
}
