import { trialCostModel } from '../assays/adaptive/cost.js';
import { designCost } from '../assays/adaptive/information.js';
import { replicateIndices } from '../assays/sweep/run-cell.js';
import type { PlanCell, PlanUnit } from '../schema/plan.js';
import { generateCell } from '../tasks/instances.js';
import { cellName, sweepSpan } from '../tasks/project-names.js';
import type { AnyTaskPlugin, TaskInstance } from '../tasks/task.js';
import { addTokens, fixed, NO_TOKENS, priced, sumAmounts, sumTokens, type Tokens } from './amount.js';
import type { PlanSubject } from './subject.js';

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

/** The adaptive design's settings (src/config/design.ts), as the plan needs them. */
export interface AdaptiveSettings {
  objective?: 'calls' | 'cost';
  depths?: { min: number; max: number };
}

/** Instances per depth the plan renders at a depth off the grid (for the high end only). */
const OFF_GRID_SAMPLES = 8;

/**
 * `--design adaptive` on a retention sweep (src/vitest/sweep.ts describeAdaptive). It stops once p_d is as precise
 * as the grid would make it, possibly far earlier, and never spends more than its cap: with the 'calls' objective
 * the grid's calls, with 'cost' (the default) the grid's cost under the design's own cost model (its expected
 * prompt and output tokens per depth at the subject's price, or output tokens alone). The plan states the grid's
 * cells as the expected amount (the cap), 0 as the low, and as the high the most the cap can buy: every call of the
 * cap at the dearest depth of its range ('calls'), or the cap spent where it buys the most tokens ('cost').
 * Cached trials are the grid's: the adaptive trials at a depth are the grid cell's first instances.
 */
export async function planAdaptive(
  task: AnyTaskPlugin,
  context: SweepContext,
  settings: AdaptiveSettings,
): Promise<PlanUnit> {
  const variant = task.variants[0];
  const grid = task.levels.values;
  const cells: PlanCell[] = [];
  const highAt = new Map<number, Tokens>();
  for (const level of grid) {
    const name = cellName(task, level, variant);
    const planned = await planCell(
      { task, level, variant, instances: gridInstances(task, level, context), name },
      context,
    );
    cells.push(planned.cell);
    highAt.set(level, planned.perTrialHigh);
  }
  const min = settings.depths?.min ?? Math.min(...grid);
  const max = settings.depths?.max ?? Math.max(...grid);
  const depths = Array.from({ length: max - min + 1 }, (_, i) => min + i);
  const cap = task.maxOutputTokens.bind(task);
  for (const depth of depths) {
    if (highAt.has(depth)) continue;
    const instances = generateCell(task, depth, Math.min(OFF_GRID_SAMPLES, context.trials), {
      profile: task.profiles[0],
      seedOffset: context.seedOffset,
    });
    const prompt = Math.max(...instances.map((i) => context.subject.promptTokens(task.render(i, variant))));
    const out = cap(depth, task.budgets?.[0]);
    highAt.set(depth, {
      calls: fixed(1),
      promptTokens: fixed(prompt),
      outputTokens: { low: 0, expected: out, high: out },
    });
  }
  const inRange = depths.map((d) => ({ depth: d, high: highAt.get(d) as Tokens }));
  const expected = sumTokens(cells.map((c) => c.amount));
  const objective = settings.objective ?? 'cost';
  let high: { calls: number; prompt: number; output: number };
  let capText: string;
  if (objective === 'calls') {
    const calls = grid.length * context.trials;
    high = {
      calls,
      prompt: calls * Math.max(...inRange.map((d) => d.high.promptTokens.high)),
      output: calls * Math.max(...inRange.map((d) => d.high.outputTokens.high)),
    };
    capText = `at most ${calls} calls (the grid's)`;
  } else {
    // the design's own cost model and cap, built as describeAdaptive builds them
    const cost = trialCostModel(task, {
      price: context.subject.price,
      // the spend tokenizer for the subject's model, as describeAdaptive counts
      tokens: {
        prompt: (prompt) => context.subject.promptTokens(prompt),
        text: (text) => context.subject.textTokens(text),
      },
      variant,
      seedOffset: context.seedOffset,
    });
    const budget = designCost(
      grid.map((depth) => ({ depth, n: context.trials })),
      cost,
    );
    // Σ cost(d_i) ≤ budget bounds Σ x(d_i) by budget · max over the range of x(d) / cost(d)
    const most = (x: (t: Tokens) => number) => budget * Math.max(...inRange.map((d) => x(d.high) / cost(d.depth)));
    high = {
      calls: Math.floor(most(() => 1) + 1e-9),
      prompt: Math.ceil(most((t) => t.promptTokens.high)),
      output: Math.ceil(most((t) => t.outputTokens.high)),
    };
    capText = "its cap is the grid's cost under its own cost model";
  }
  const tokens: Tokens = {
    calls: { low: 0, expected: objective === 'calls' ? expected.calls.expected : null, high: high.calls },
    promptTokens: {
      low: 0,
      expected: expected.promptTokens.expected,
      high: Math.max(high.prompt, expected.promptTokens.high),
    },
    outputTokens: {
      low: 0,
      expected: expected.outputTokens.expected,
      high: Math.max(high.output, expected.outputTokens.high),
    },
  };
  const note =
    `the adaptive design (objective ${objective}, depths ${min}…${max}) stops once p_d is as precise as the grid would make it; ` +
    `${capText}, up to ${high.calls.toLocaleString('en-US')} calls; expected: the grid's amounts (its cap)`;
  const unit = unitOf(`${task.id} · adaptive`, 'adaptive', cells, context, note);
  return { ...unit, isRange: true, amount: priced(tokens, context.subject.price) };
}
