import type { RunConfig } from '../config/resolve.js';
import {
  PLAN_FORMAT,
  type Plan,
  type PlanProject,
  type PlanSubjectPlan,
  type PlanTotals,
  type PlanUnit,
  planSchema,
} from '../schema/plan.js';
import { subjectLabels } from '../subjects/label.js';
import type { Env } from '../subjects/openai/endpoint.js';
import { standardProjects } from '../tasks/project-names.js';
import { type PlannedUnit, plannedUnits } from '../tasks/standard-specs.js';
import { runTotals, type SubjectTotals, sumAmounts, sumCounts } from './amount.js';
import { EXPECTED_OUTPUT_NOTE, limitNotes, subjectNotes } from './notes.js';
import { type SelectedProject, selectProjects } from './projects.js';
import { planAgent, planCounting, planDual, planMotif } from './scc.js';
import { type PlanSubject, planSubject } from './subject.js';
import { planAblation, planAdaptive, planSweep, type SweepContext } from './sweep.js';
import { usd } from './table.js';

export interface PlanOptions {
  /** The run's resolved configuration (subjects, trials, seed, design, prices, cache directory). */
  config: RunConfig;
  /**
   * The projects to plan, as `--project` names them (with several subjects, `d2` is d2 of every subject and
   * `d2@<label pattern>` of those it matches); default: every standard project, then `ownProjects`.
   */
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
    case 'ladder':
      return planCounting(subject, unit.task);
    case 'scc-motif':
      return planMotif(subject);
    case 'scc-dual':
      return planDual(subject, config.seed, config.trials);
    case 'scc-agent':
      return planAgent(subject, config.seed, config.trials);
  }
}

async function planProject(project: SelectedProject, config: RunConfig, context: SweepContext): Promise<PlanProject> {
  const { name } = project;
  const subject = context.subject.spec;
  if (!standardProjects().includes(project.base)) {
    return {
      name,
      subject,
      estimated: false,
      note: 'your own spec files decide what this project runs: not estimated (left out of the totals)',
      units: [],
      trials: null,
      cached: null,
      amount: null,
    };
  }
  const units: PlanUnit[] = [];
  for (const unit of plannedUnits(project.base)) units.push(await planUnit(unit, config, context));
  return {
    name,
    subject,
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

/** One subject's part of the plan: its projects priced at its price, its cache holdings under its own key. */
interface SubjectPart {
  subject: PlanSubject;
  label: string | null;
  projects: PlanProject[];
  totals: PlanTotals;
  notes: string[];
}

async function planOneSubject(
  subject: PlanSubject,
  label: string | null,
  selected: readonly SelectedProject[],
  config: RunConfig,
  several: boolean,
): Promise<SubjectPart> {
  const context: SweepContext = { subject, trials: config.trials, seedOffset: seedOffsetOf(config.seed) };
  const projects: PlanProject[] = [];
  for (const project of selected) projects.push(await planProject(project, config, context));
  const estimated = projects.filter((p) => p.estimated);
  const totals: PlanTotals = {
    trials: sumCounts(estimated.map((p) => p.trials)),
    cached: sumCounts(estimated.map((p) => p.cached)),
    amount: sumAmounts(
      estimated.flatMap((p) => (p.amount ? [p.amount] : [])),
      subject.price,
    ),
    complete: estimated.length === projects.length,
  };
  return { subject, label, projects, totals, notes: subjectNotes(subject, projects, several) };
}

/** Subjects whose trials are sent somewhere that may bill: an endpoint, or the user's own function (src/subjects/function). */
const sends = (part: SubjectPart): boolean => part.subject.kind === 'openai' || part.subject.kind === 'function';

const billsOf = (part: SubjectPart): SubjectTotals => ({ bills: sends(part), totals: part.totals });

/** What only a run of several subjects needs said: why its total has no cost, what its limits count. */
function runNotes(parts: readonly SubjectPart[], totals: PlanTotals, config: RunConfig): string[] {
  const notes: string[] = [];
  const billed = parts.filter(sends);
  const unpriced = billed.filter((p) => p.totals.amount.costUsd === null);
  const priced = billed.filter((p) => p.totals.amount.costUsd !== null);
  if (totals.amount.costUsd === null && priced.length > 0) {
    const cost = runTotals(priced.map(billsOf)).amount.costUsd;
    const expected = cost?.expected == null ? '' : `${usd(cost.expected)} `;
    const sum = cost ? ` (the priced ones come to ${expected}[${usd(cost.low)}–${usd(cost.high)}])` : '';
    notes.push(
      `the run total has no cost: ${unpriced.map((p) => p.subject.spec).join(', ')} ${unpriced.length === 1 ? 'has' : 'have'} no price${sum}`,
    );
  }
  const free = parts.filter((p) => !sends(p));
  if (Object.values(config.limits).some((v) => v !== undefined) && free.length > 0 && free.length < parts.length) {
    notes.push(
      `the spending limits count the requests of the openai: and module: subjects, compared below against their sum (${free.map((p) => p.subject.spec).join(', ')} ${free.length === 1 ? 'sends' : 'send'} none)`,
    );
  }
  return notes;
}

/** The totals the spending limits are compared against: the subjects that send requests (all, when none does). */
function limitedTotals(parts: readonly SubjectPart[], totals: PlanTotals): PlanTotals {
  const billed = parts.filter(sends);
  return billed.length === 0 || billed.length === parts.length ? totals : runTotals(billed.map(billsOf));
}

const subjectPlan = (part: SubjectPart): PlanSubjectPlan => ({
  spec: part.subject.spec,
  kind: part.subject.kind,
  model: part.subject.model,
  label: part.label,
  tokenizer: part.subject.tokenizer,
  price: part.subject.price,
  cache: part.subject.cache,
  projects: part.projects.map((p) => p.name),
  totals: part.totals,
  notes: part.notes,
});

/**
 * The plan of a run: per subject, project and cell, the requests still to send (a trial the response cache answers
 * costs nothing), their prompt tokens counted from the rendered prompts, their output tokens (low, expected, high)
 * and their cost at the config's price for that subject; then the run's total over its subjects, which the spending
 * limits (one ledger for the whole run) are compared against. It builds no subject and sends nothing: the cache is
 * read from disk by key.
 */
export async function buildPlan(options: PlanOptions): Promise<Plan> {
  const { config } = options;
  const env = options.env ?? process.env;
  const specs = config.subjects;
  const several = specs.length > 1;
  const labels: (string | null)[] = several ? subjectLabels(specs) : [null];
  const names = options.projects ?? [...standardProjects(), ...(options.ownProjects ?? [])];
  const selected = selectProjects(names, labels);
  const parts: SubjectPart[] = [];
  for (const [i, spec] of specs.entries()) {
    parts.push(await planOneSubject(planSubject(config, env, spec), labels[i], selected[i], config, several));
  }
  const totals = runTotals(parts.map(billsOf));
  const [first] = parts;
  const own = several ? [...new Set(parts.flatMap((p) => p.notes))] : first.notes;
  const notes = [
    ...own,
    ...(several ? runNotes(parts, totals, config) : []),
    EXPECTED_OUTPUT_NOTE,
    ...limitNotes(config.limits, limitedTotals(parts, totals).amount),
    ...(options.notes ?? []),
  ];
  return planSchema.parse({
    format: PLAN_FORMAT,
    subject: { spec: first.subject.spec, kind: first.subject.kind, model: first.subject.model },
    trials: config.trials,
    seed: config.seed,
    design: config.design,
    tokenizer: first.subject.tokenizer,
    price: first.subject.price,
    cache: first.subject.cache,
    subjects: parts.map(subjectPlan),
    projects: parts.flatMap((p) => p.projects),
    totals,
    notes,
  });
}
