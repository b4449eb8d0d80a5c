import { replicateIndices } from '../assays/sweep/run-cell.js';
import type { PlanCell, PlanUnit } from '../schema/plan.js';
import { generateCell } from '../tasks/instances.js';
import type { AnyTaskPlugin, TaskInstance } from '../tasks/task.js';
import { cellName, sweepSpan } from '../vitest/names.js';
import { addTokens, fixed, NO_TOKENS, priced, sumAmounts, sumTokens, type Tokens } from './plan-amount.js';
import type { PlanSubject } from './plan-subject.js';

/** What the grid, ablation and adaptive units share: the run's trials, instance seeds and subject. */
export interface SweepContext {
  subject: PlanSubject;
  trials: number;
  /** Added to every instance seed (the run seed · 10^6, as src/vitest/context.ts seedOffsetFor). */
  seedOffset: number;
}

/**
 * One trial still to send: its prompt exactly, its output between the canonical response and the output budget.
 * The expected output is the family's length model where it declares one (CCB: the paper's mean lengths), else the
 * canonical response. Real models answer CCB more tersely than the canonical trace, so low is the shorter of the two.
 */
function trialTokens(prompt: number, canonical: number, expected: number, cap: number): Tokens {
  const out = Math.min(expected, cap);
  return {
    calls: fixed(1),
    promptTokens: fixed(prompt),
    outputTokens: { low: Math.min(canonical, out), expected: out, high: cap },
  };
}

const highOf = (t: Tokens): number => t.promptTokens.high + t.outputTokens.high;

interface CellSpec {
  task: AnyTaskPlugin;
  level: number;
  variant: string;
  instances: readonly TaskInstance[];
  name: string;
}

async function planCell(spec: CellSpec, context: SweepContext): Promise<{ cell: PlanCell; perTrialHigh: Tokens }> {
  const { task, level, variant, instances } = spec;
  const { subject } = context;
  const replicate = replicateIndices(task, instances);
  // the budget rule a cell runs under by default (run-cell.ts cellSettings: the task's first)
  const cap = task.maxOutputTokens(level, task.budgets?.[0]);
  const lengthModel = task.expectedOutputTokens?.(level);
  let tokens = NO_TOKENS;
  let cached = 0;
  let perTrialHigh = NO_TOKENS;
  for (const [i, instance] of instances.entries()) {
    const prompt = task.render(instance, variant);
    const request = { taskId: task.id, instance, prompt, trialIndex: replicate[i], maxOutputTokens: cap };
    const canonical = subject.textTokens(task.canonicalResponse(instance));
    const trial = trialTokens(subject.promptTokens(prompt), canonical, lengthModel ?? canonical, cap);
    if (highOf(trial) > highOf(perTrialHigh)) perTrialHigh = trial;
    if (await subject.isCached(request)) {
      cached++;
      continue;
    }
    tokens = addTokens(tokens, trial);
  }
  return {
    cell: {
      name: spec.name,
      task: task.id,
      level,
      variant,
      trials: instances.length,
      cached,
      amount: priced(roundExpected(tokens), subject.price),
    },
    perTrialHigh,
  };
}

/** Expected output tokens of a length model are means (28.5 · N): a cell states them as whole tokens. */
const roundExpected = (tokens: Tokens): Tokens => ({
  ...tokens,
  outputTokens: {
    ...tokens.outputTokens,
    expected: tokens.outputTokens.expected === null ? null : Math.round(tokens.outputTokens.expected),
  },
});

function unitOf(
  name: string,
  kind: PlanUnit['kind'],
  cells: PlanCell[],
  context: SweepContext,
  note: string | null,
): PlanUnit {
  return {
    name,
    kind,
    isRange: false,
    trials: cells.reduce((s, c) => s + c.trials, 0),
    cached: cells.reduce((s, c) => s + c.cached, 0),
    cells,
    amount: sumAmounts(
      cells.map((c) => c.amount),
      context.subject.price,
    ),
    note,
  };
}

const gridInstances = (task: AnyTaskPlugin, level: number, context: SweepContext) =>
  generateCell(task, level, context.trials, { profile: task.profiles[0], seedOffset: context.seedOffset });

/** `describeSweep(id)`: one cell per level of the task's axis, the first variant and profile, the default budget. */
export async function planSweep(task: AnyTaskPlugin, context: SweepContext): Promise<PlanUnit> {
  const variant = task.variants[0];
  const cells: PlanCell[] = [];
  for (const level of task.levels.values) {
    const name = cellName(task, level, variant);
    cells.push(
      (await planCell({ task, level, variant, instances: gridInstances(task, level, context), name }, context)).cell,
    );
  }
  return unitOf(`${task.id} · ${sweepSpan(task, task.levels.values)}`, 'grid', cells, context, null);
}

/** `describeAblation(id, { level, variants })`: every variant on the same instances. */
export async function planAblation(
  task: AnyTaskPlugin,
  level: number,
  variants: readonly string[],
  context: SweepContext,
): Promise<PlanUnit> {
  const instances = gridInstances(task, level, context);
  const cells: PlanCell[] = [];
  for (const variant of variants) {
    const name = `${cellName(task, level)} · ${variant}`;
    cells.push((await planCell({ task, level, variant, instances, name }, context)).cell);
  }
  return unitOf(`${task.id} ablation · N=${level}`, 'ablation', cells, context, null);
}

/**
 * `--design adaptive` on a retention sweep. Its cap is the grid's calls (depths × trials) and it may stop far
 * earlier, so the plan states the grid's cells as the expected amount (an upper bound of the calls), 0 as the low,
 * and as the high every call of the cap at the most expensive depth. Cached trials are the grid's: the adaptive
 * trials at a depth are the grid cell's first instances, the same requests.
 */
export async function planAdaptive(task: AnyTaskPlugin, context: SweepContext): Promise<PlanUnit> {
  const variant = task.variants[0];
  const cells: PlanCell[] = [];
  let worst = NO_TOKENS;
  for (const level of task.levels.values) {
    const name = cellName(task, level, variant);
    const planned = await planCell(
      { task, level, variant, instances: gridInstances(task, level, context), name },
      context,
    );
    cells.push(planned.cell);
    if (highOf(planned.perTrialHigh) > highOf(worst)) worst = planned.perTrialHigh;
  }
  const cap = task.levels.values.length * context.trials;
  const grid = sumTokens(cells.map((c) => c.amount));
  const bound = (expected: number | null, perCall: number) => ({ low: 0, expected, high: cap * perCall });
  const tokens: Tokens = {
    calls: bound(grid.calls.expected, 1),
    promptTokens: bound(grid.promptTokens.expected, worst.promptTokens.high),
    outputTokens: bound(grid.outputTokens.expected, worst.outputTokens.high),
  };
  const note = `the adaptive design stops once p_d is as precise as the grid would make it, after at most ${cap} calls; expected: the grid's, its cap`;
  const unit = unitOf(`${task.id} · adaptive`, 'adaptive', cells, context, note);
  return { ...unit, isRange: true, amount: priced(tokens, context.subject.price) };
}
