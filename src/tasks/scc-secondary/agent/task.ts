import { PyRandom } from '../../../rng/index.js';

/**
 * The agent subtask of `run_agent_count_disruption.py` (paper Supplementary Note 8; docs/spec/scc.md §11): three
 * accounts updated by six signed transactions, review ids in encounter order, the net total and one of three
 * next actions. A pure function of (seed, task index), from `Random(f"{seed}:agent-task:{index}")`.
 */
export const ACCOUNTS = ['A', 'B', 'C'] as const;
export type Account = (typeof ACCOUNTS)[number];
export const NEXT_ACTIONS = ['escalate', 'manual_review', 'accept'] as const;
export type NextAction = (typeof NEXT_ACTIONS)[number];
export const AGENT_SEED = 17;
export const TRANSACTIONS_PER_TASK = 6;
export const AGENT_TASK_SAMPLES = 6;

export interface AgentTransaction {
  id: string;
  account: Account;
  delta: number;
  flagged: boolean;
}

export interface AgentExpected {
  final_balances: Record<Account, number>;
  review_ids: string[];
  net_total: number;
  next_action: NextAction;
}

export interface AgentTask {
  taskId: string;
  taskIndex: number;
  seed: number;
  reviewThreshold: number;
  startingBalances: Record<Account, number>;
  transactions: AgentTransaction[];
  expected: AgentExpected;
  /** The task text, verbatim as the authors build it. */
  prompt: string;
}

const pad2 = (n: number): string => String(n).padStart(2, '0');
const signed = (n: number): string => (n >= 0 ? `+${n}` : String(n));

export function buildAgentTask(seed: number, taskIndex: number): AgentTask {
  if (!Number.isInteger(taskIndex) || taskIndex < 0)
    throw new RangeError(`agent task index must be a non-negative integer, got ${taskIndex}`);
  const rng = new PyRandom(`${seed}:agent-task:${taskIndex}`);
  const start = {} as Record<Account, number>;
  for (const account of ACCOUNTS) start[account] = rng.randint(40, 120);
  const reviewThreshold = rng.choice([25, 30, 35, 40]);
  const balances = { ...start };
  const reviewIds: string[] = [];
  const transactions: AgentTransaction[] = [];
  const lines: string[] = [];
  for (let index = 0; index < TRANSACTIONS_PER_TASK; index++) {
    const account = rng.choice(ACCOUNTS);
    let delta = 0;
    while (delta === 0) delta = rng.randint(-45, 45);
    const flagged = rng.random() < 0.25;
    const id = `T${pad2(taskIndex + 1)}-${pad2(index + 1)}`;
    balances[account] += delta;
    if (flagged || Math.abs(delta) >= reviewThreshold) reviewIds.push(id);
    transactions.push({ id, account, delta, flagged });
    lines.push(`- ${id}: account=${account}, delta=${signed(delta)}, flagged=${flagged ? 'yes' : 'no'}`);
  }
  const netTotal = balances.A + balances.B + balances.C;
  const nextAction: NextAction = ACCOUNTS.some((a) => balances[a] < 0)
    ? 'escalate'
    : reviewIds.length > 0
      ? 'manual_review'
      : 'accept';
  const prompt = [
    'Simulate a lightweight operations agent.',
    'Apply each signed delta in order to the referenced account.',
    `Add a transaction id to review_ids if flagged=yes or abs(delta) >= ${reviewThreshold}.`,
    'Keep review_ids in encounter order.',
    'net_total is the sum of the final balances.',
    'next_action is "escalate" if any final balance is negative, otherwise "manual_review" if review_ids is non-empty, otherwise "accept".',
    '',
    'Return JSON with exactly this schema:',
    '{"final_balances": {"A": <int>, "B": <int>, "C": <int>}, "review_ids": [<transaction ids>], "net_total": <int>, "next_action": <string>}',
    '',
    `Starting balances: A=${start.A}, B=${start.B}, C=${start.C}`,
    'Transactions:',
    ...lines,
  ].join('\n');
  return {
    taskId: `agent_task_${String(taskIndex).padStart(3, '0')}`,
    taskIndex,
    seed,
    reviewThreshold,
    startingBalances: start,
    transactions,
    expected: { final_balances: balances, review_ids: reviewIds, net_total: netTotal, next_action: nextAction },
    prompt,
  };
}
