import { SCC_OUTPUT_TOKENS_CEILING } from '../assays/scc/budget-rule.js';
import type { PlanAmount, PlanProject, PlanRange } from '../schema/plan.js';
import type { SpendLimits } from '../schema/spend.js';
import { isTaskId, resolveTask } from '../tasks/registry.js';
import { addRange } from './amount.js';
import type { PlanSubject } from './subject.js';
import { usd } from './table.js';

/** The plan's last note of its own: where the output token counts come from (the same for every subject). */
export const EXPECTED_OUTPUT_NOTE =
  'expected output: CCB’s length model (the paper’s mean response lengths per depth), else the canonical response; high: every answer runs to its output budget';

/**
 * What one subject's plan needs said: its tokenizer, its price, its cache, its ranges and the projects it does not
 * estimate. `several`: the run has several subjects, so a note that would not otherwise say whose it is names the
 * subject.
 */
export function subjectNotes(subject: PlanSubject, projects: readonly PlanProject[], several: boolean): string[] {
  const notes: string[] = [];
  const { tokenizer, price, cache } = subject;
  if (!tokenizer.exact) {
    const why = subject.model
      ? `'${subject.model}' is not an OpenAI model name, so`
      : several
        ? `${subject.spec} names no model, so`
        : 'the subject names no model, so';
    notes.push(`tokens are counted with ${tokenizer.encoding}: ${why} the counts approximate its tokenizer`);
  }
  if (price === null && (subject.kind === 'openai' || subject.kind === 'function')) {
    const key = subject.model ?? subject.spec;
    notes.push(
      `no price for ${subject.spec} in the config's prices: tokens only (e.g. prices: { '${key}': { input: 0.15, output: 0.6 } })`,
    );
  }
  if (subject.batch) {
    const list = subject.batch.listPrice;
    const rate = (p: { input: number; output: number }) => `$${p.input}/$${p.output}`;
    const rates = price && list ? `: ${rate(price)} per million input/output tokens against ${rate(list)} live` : '';
    notes.push(
      `${several ? `${subject.spec}: ` : ''}priced at the batch rate${rates} — answered through the provider's batch API within 24 h (run --batch)`,
    );
  }
  if (subject.kind === 'function') {
    notes.push(
      `${subject.spec} is your own function: these are the tokens of the prompts it is given (not what it sends), every trial counted as not cached`,
    );
  } else if (subject.kind !== 'openai') {
    notes.push(
      `${subject.spec} sends no request to a provider: these are the tokens a model would be sent, and nothing is billed`,
    );
  } else if (cache.dir === null) {
    notes.push('the response cache is off (CEILINGBENCH_CACHE_MODE=off): every trial is sent');
  } else if (cache.mode === 'refresh') {
    notes.push('CEILINGBENCH_CACHE_MODE=refresh: cached answers are asked again, so none is counted as cached');
  }
  for (const project of projects) {
    const ranges = project.units.filter((u) => u.isRange);
    if (ranges.length === 0) continue;
    const parts = ranges.map((u) => `${u.name}: ${u.note}`).join('; ');
    const doubling = ranges.some((u) => u.kind === 'ladder' || u.kind === 'design')
      ? `; every request may double its output budget up to ${SCC_OUTPUT_TOKENS_CEILING.toLocaleString('en-US')} (high)`
      : '';
    notes.push(`${project.name} is a range, not a count — ${parts}${doubling}`);
  }
  if (cache.dir !== null && cache.mode !== 'refresh')
    notes.push(`cached: looked up in the response cache at ${cache.dir}`);
  for (const p of projects) if (!p.estimated) notes.push(`${p.name}: ${p.note}`);
  const fixed = replicatedInstances(projects);
  if (subject.temperature === 0 && fixed.length > 0) notes.push(replicatesNote(subject, fixed, several));
  return notes;
}

/** The tasks whose level alone fixes the instance and whose cells ask it more than once (hanoi, checkers, river, jug). */
function replicatedInstances(projects: readonly PlanProject[]): string[] {
  const tasks = new Set<string>();
  for (const project of projects)
    for (const unit of project.units)
      for (const cell of unit.cells) {
        if (cell.trials > 1 && isTaskId(cell.task) && resolveTask(cell.task).fixedInstancePerLevel)
          tasks.add(cell.task);
      }
  return [...tasks];
}

/**
 * The warning before a run whose replicates cannot differ (docs/outputs.md, "Replicates"): at temperature 0 the
 * trials of a fixed-instance level are the same request, and identical answers are one sample, not n.
 */
function replicatesNote(subject: PlanSubject, tasks: readonly string[], several: boolean): string {
  const who = several ? `${subject.spec} is` : 'the subject is';
  return (
    `warning: ${tasks.join(', ')} ask one instance per level, and ${who} asked at temperature 0: replicates that ` +
    'come back identical are one sample, so such a level’s 95% CI and λ* stand on 1 sample, not its trial count ' +
    '(the report says so). For independent replicates set CEILINGBENCH_TEMPERATURE (e.g. 0.7)'
  );
}

/** Where the estimate stands against the run's spending limits (a limit stops launching; it never cuts an answer). */
export function limitNotes(limits: SpendLimits, amount: PlanAmount): string[] {
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
