import type { PyRandom } from '../../../rng/index.js';
import type { SimKnobs } from '../../task.js';
import { markerSequence } from '../common.js';
import { simulatedCount } from '../sim-count.js';
import { type AgentCondition, COPY_ACTION, COPY_PATH, conditionHasCopy, conditionHasTask } from './prompts.js';
import { ACCOUNTS, type AgentExpected, type AgentTask, TRANSACTIONS_PER_TASK } from './task.js';

/**
 * A simulated agent (src/subjects/sim knobs): the account task is carried step by step with probability
 * `retention` per transaction (one sign slip otherwise); the marker count and the copy are exact up to
 * `capacity` markers and drift past it (simulatedCount). Past capacity the copy conditions also collapse to an
 * empty answer with probability min(0.6, r − 0.25) (Table S10's "unparsable empty outputs"), and
 * copy_then_agent loses the task with probability min(0.5, r / 2) (the combined burden).
 */
function slipped(task: AgentTask, rng: PyRandom): AgentExpected {
  const slip = task.transactions[rng.randbelow(TRANSACTIONS_PER_TASK)];
  const balances = { ...task.expected.final_balances };
  balances[slip.account] -= 2 * slip.delta;
  const net = ACCOUNTS.reduce((sum, a) => sum + balances[a], 0);
  const ids = task.expected.review_ids;
  const nextAction = ACCOUNTS.some((a) => balances[a] < 0) ? 'escalate' : ids.length > 0 ? 'manual_review' : 'accept';
  return { final_balances: balances, review_ids: [...ids], net_total: net, next_action: nextAction };
}

export function simulateAgent(
  condition: AgentCondition,
  task: AgentTask | null,
  markers: number,
  rng: PyRandom,
  knobs: SimKnobs,
): string {
  const taskDraw = rng.random();
  const collapseDraw = rng.random();
  const combinedDraw = rng.random();
  const capacity = Math.max(1, knobs.capacity);
  const overshoot = markers > capacity ? (markers - capacity) / capacity : 0;
  if (conditionHasCopy(condition) && collapseDraw < Math.min(0.6, overshoot - 0.25)) return '';
  const payload: Record<string, unknown> = {};
  if (conditionHasCopy(condition)) {
    const copied = simulatedCount(markers, capacity, rng);
    payload.action = COPY_ACTION;
    payload.path = COPY_PATH;
    payload.file_content = markerSequence(copied);
    payload.marker_count = copied;
  }
  if (conditionHasTask(condition)) {
    if (!task) throw new Error(`condition ${condition} needs an agent task`);
    const kept = taskDraw < knobs.retention ** TRANSACTIONS_PER_TASK;
    const combinedLoss = condition === 'copy_then_agent' && combinedDraw < Math.min(0.5, overshoot / 2);
    Object.assign(payload, kept && !combinedLoss ? task.expected : slipped(task, rng));
    if (condition === 'agent_count_insert') payload.marker_count = simulatedCount(markers, capacity, rng);
  }
  return JSON.stringify(payload);
}
