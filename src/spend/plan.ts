import { SCC_OUTPUT_TOKENS_CEILING } from '../assays/scc/budget-rule.js';
import type { RunConfig } from '../config/resolve.js';
import {
  PLAN_FORMAT,
  type Plan,
  type PlanAmount,
  type PlanProject,
  type PlanRange,
  type PlanUnit,
  planSchema,
} from '../schema/plan.js';
import type { SpendLimits } from '../schema/spend.js';
import type { Env } from '../subjects/openai/endpoint.js';
import { standardProjects } from '../vitest/names.js';
import { addRange, sumAmounts } from './plan-amount.js';
import { planAgent, planCounting, planDual, planMotif } from './plan-scc.js';
import { type PlanSubject, planSubject } from './plan-subject.js';
import { planAblation, planAdaptive, planSweep, type SweepContext } from './plan-sweep.js';
import { usd } from './plan-table.js';
import { type PlannedUnit, plannedUnits } from './plan-units.js';

export interface PlanOptions {
  /** The run's resolved configuration (subject, trials, seed, design, prices, cache directory). */
  config: RunConfig;
  /** The projects to plan; default: every standard project, then `ownProjects`. */
  projects?: readonly string[];
  /** The user's own spec projects that exist (a `benchmarks/` folder): listed, never estimated. */
  ownProjects?: readonly string[];
  /** Provider options and the endpoint, read as the openai subject reads them (default process.env). */
  env?: Env;
  /** Notes of the caller's (the CLI's), printed after the plan's own. */
  notes?: readonly string[];
}

/** Instance seeds of a run (src/vitest/context.ts seedOffsetFor: seed s shifts every seed by s · 10^6). */
const seedOffsetOf = (runSeed: number): number => runSeed * 1_000_000;

async function planUnit(unit: PlannedUnit, config: RunConfig, context: SweepContext): Promise<PlanUnit> {
  const { subject } = context;
  switch (unit.kind) {
    case 'sweep':
      return config.design.kind === 'adaptive' && unit.task.analysis === 'retention'
        ? planAdaptive(unit.task, context, config.design)
        : planSweep(unit.task, context);
    case 'ablation':
      return planAblation(unit.task, unit.level, unit.variants, context);
    case 'scc-counting':
      return planCounting(subject);
    case 'scc-motif':
      return planMotif(subject);
    case 'scc-dual':
      return planDual(subject, config.seed, config.trials);
    case 'scc-agent':
      return planAgent(subject, config.seed, config.trials);
  }
}

const sumCounts = (values: readonly (number | null)[]): number | null =>
  values.some((v) => v === null) ? null : values.reduce<number>((a, b) => a + (b ?? 0), 0);

async function planProject(name: string, config: RunConfig, context: SweepContext): Promise<PlanProject> {
  if (!standardProjects().includes(name)) {
    return {
      name,
      estimated: false,
      note: 'your own spec files decide what this project runs: not estimated (left out of the totals)',
      units: [],
      trials: null,
      cached: null,
      amount: null,
    };
  }
  const units: PlanUnit[] = [];
  for (const unit of plannedUnits(name)) units.push(await planUnit(unit, config, context));
  return {
    name,
    estimated: true,
    note: null,
    units,
    trials: sumCounts(units.map((u) => u.trials)),
    cached: sumCounts(units.map((u) => u.cached)),
    amount: sumAmounts(
      units.map((u) => u.amount),
      context.subject.price,
    ),
  };
}

function notesOf(plan: Omit<Plan, 'notes'>, subject: PlanSubject): string[] {
  const notes: string[] = [];
  const { tokenizer } = plan;
  if (!tokenizer.exact) {
    notes.push(
      `tokens are counted with ${tokenizer.encoding}: ${subject.model ? `'${subject.model}' is not an OpenAI model name, so` : 'the subject names no model, so'} the counts approximate its tokenizer`,
    );
  }
  if (plan.price === null && subject.kind === 'openai') {
    const key = subject.model ?? subject.spec;
    notes.push(
      `no price for ${subject.spec} in the config's prices: tokens only (e.g. prices: { '${key}': { input: 0.15, output: 0.6 } })`,
    );
  }
  if (subject.kind !== 'openai') {
    notes.push(
      `${subject.spec} sends no request to a provider: these are the tokens a model would be sent, and nothing is billed`,
    );
  } else if (plan.cache.dir === null) {
    notes.push('the response cache is off (CEILINGBENCH_CACHE_MODE=off): every trial is sent');
  } else if (plan.cache.mode === 'refresh') {
    notes.push('CEILINGBENCH_CACHE_MODE=refresh: cached answers are asked again, so none is counted as cached');
  }
  for (const project of plan.projects) {
    const ranges = project.units.filter((u) => u.isRange);
    if (ranges.length === 0) continue;
    const parts = ranges.map((u) => `${u.name}: ${u.note}`).join('; ');
    const doubling = ranges.some((u) => u.kind === 'ladder' || u.kind === 'design')
      ? `; every request may double its output budget up to ${SCC_OUTPUT_TOKENS_CEILING.toLocaleString('en-US')} (high)`
      : '';
    notes.push(`${project.name} is a range, not a count — ${parts}${doubling}`);
  }
  if (plan.cache.dir !== null && plan.cache.mode !== 'refresh')
    notes.push(`cached: looked up in the response cache at ${plan.cache.dir}`);
  for (const p of plan.projects) if (!p.estimated) notes.push(`${p.name}: ${p.note}`);
  notes.push(
    'expected output: CCB’s length model (the paper’s mean response lengths per depth), else the canonical response; high: every answer runs to its output budget',
  );
  return notes;
}

/** Where the estimate stands against the run's spending limits (a limit stops launching; it never cuts an answer). */
function limitNotes(limits: SpendLimits, amount: PlanAmount): string[] {
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  const against = (name: string, limit: number, range: PlanRange | null, show: (n: number) => string): string => {
    if (range === null) return `${name} ${show(limit)}: not compared (no price)`;
    const where =
      range.high <= limit
        ? 'the whole range is within it'
        : range.expected !== null && range.expected <= limit
          ? `the expected ${show(range.expected)} is within it, the high end ${show(range.high)} is not: the run may stop at the limit`
          : range.low > limit
            ? `even the low end ${show(range.low)} is above it: the run will stop at the limit`
            : `the range ${show(range.low)}–${show(range.high)} crosses it: the run may stop at the limit`;
    return `${name} ${show(limit)}: ${where}`;
  };
  const notes: string[] = [];
  if (limits.maxCost !== undefined) notes.push(against('--max-cost', limits.maxCost, amount.costUsd, usd));
  if (limits.maxCalls !== undefined) notes.push(against('--max-calls', limits.maxCalls, amount.calls, fmt));
  if (limits.maxTokens !== undefined) {
    notes.push(against('--max-tokens', limits.maxTokens, addRange(amount.promptTokens, amount.outputTokens), fmt));
  }
  return notes;
}

/**
 * The plan of a run: per project and cell, the requests still to send (a trial the response cache answers costs
 * nothing), their prompt tokens counted from the rendered prompts, their output tokens (low, expected, high) and
 * their cost at the config's price. It builds no subject and sends nothing: the cache is read from disk by key.
 */
export async function buildPlan(options: PlanOptions): Promise<Plan> {
  const { config } = options;
  const env = options.env ?? process.env;
  const subject = planSubject(config, env);
  const names = options.projects ?? [...standardProjects(), ...(options.ownProjects ?? [])];
  const context: SweepContext = { subject, trials: config.trials, seedOffset: seedOffsetOf(config.seed) };
  const projects: PlanProject[] = [];
  for (const name of names) projects.push(await planProject(name, config, context));
  const estimated = projects.filter((p) => p.estimated);
  const body: Omit<Plan, 'notes'> = {
    format: PLAN_FORMAT,
    subject: { spec: subject.spec, kind: subject.kind, model: subject.model },
    trials: config.trials,
    seed: config.seed,
    design: config.design,
    tokenizer: subject.tokenizer,
    price: subject.price,
    cache: subject.cache,
    projects,
    totals: {
      trials: sumCounts(estimated.map((p) => p.trials)),
      cached: sumCounts(estimated.map((p) => p.cached)),
      amount: sumAmounts(
        estimated.flatMap((p) => (p.amount ? [p.amount] : [])),
        subject.price,
      ),
      complete: estimated.length === projects.length,
    },
  };
  const notes = [...notesOf(body, subject), ...limitNotes(config.limits, body.totals.amount), ...(options.notes ?? [])];
  return planSchema.parse({ ...body, notes });
}
