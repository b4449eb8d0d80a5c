import type { CellResult } from '../../src/schema/cell.js';
import type { AssayUsage, SccAssayRecord, SccRecord, Spend, SpendTotals } from '../../src/schema/report.js';
import type { Price, Prices, SpendAmount, SpendLimitReport } from '../../src/schema/spend.js';
import type { SubjectIdentity } from '../../src/schema/subject.js';
import type { TrialRecord } from '../../src/schema/trial.js';
import { batchPrice, billedTokens, costOf, priceFor, sumBilled } from '../../src/spend/price.js';
import { isMissing } from '../../src/tasks/outcome.js';
import { assaySpentOf } from './assay-spend.js';
import type { Billable } from './billable.js';
import { thousands, usd } from './format.js';

/**
 * The accounts of a run (ceilingbench.json `spend`): every figure is a sum over trial records, so the same run
 * gives the same bytes. A cost is the provider's own figure for a trial when it reported one, else the trial's
 * billed tokens at the subject's price; a group whose cost cannot be known that way has cost null.
 */

export const billableOfTrial = (t: TrialRecord): Billable => ({
  cacheHit: t.cacheHit,
  attempts: t.attempts,
  usage: t.usage,
  answered: !isMissing(t.outcome),
  ...(t.billedNoAnswer ? { billedNoAnswer: t.billedNoAnswer } : {}),
  ...(t.batch !== undefined ? { batch: true } : {}),
});

/** A unit answered by requests sent in this run (a cache hit sent none; a trial stopped before sending, neither). */
const sentThisRun = (t: Billable): boolean => !t.cacheHit && t.attempts > 0;

/**
 * What a unit's answer cost (or, from the cache, would have cost); 0 without usage (nothing to bill). A batch's answer
 * at the batch price (the price entry's `batch`, else half of each token price), as `plan --batch` prices it.
 */
function unitCost(t: Billable, price: Price | null): number | null {
  if (t.unrecorded) return null;
  if (t.usage === null) return 0;
  if (t.usage.costUsd !== undefined) return t.usage.costUsd;
  if (!price) return null;
  return costOf(billedTokens(t.usage), t.batch ? batchPrice(price) : price);
}

const sumCosts = (units: readonly Billable[], price: Price | null): number | null => {
  let sum = 0;
  for (const t of units) {
    const cost = unitCost(t, price);
    if (cost === null) return null;
    sum += cost;
  }
  return sum;
};

/** A unit's billed-but-unanswered tokens as a unit of their own (a paid one, never from the cache). */
const noAnswerUnit = (t: Billable): Billable => ({
  cacheHit: false,
  attempts: 0,
  usage: t.billedNoAnswer ?? null,
  answered: false,
});

type NoAnswerTotals = NonNullable<SpendTotals['billedNoAnswer']>;

const addBilled = <T extends { prompt: number; cachedPrompt: number; completion: number; reasoning: number }>(
  a: T,
  b: { prompt: number; cachedPrompt: number; completion: number; reasoning: number },
): T => ({
  ...a,
  prompt: a.prompt + b.prompt,
  cachedPrompt: a.cachedPrompt + b.cachedPrompt,
  completion: a.completion + b.completion,
  reasoning: a.reasoning + b.reasoning,
});

/**
 * The totals of one subject's units at its price. The cost is known when the subject has a price, or when every
 * unit with usage carries the provider's cost (and there is one); otherwise it is null — paid and saved alike.
 */
export function spendOf(units: readonly Billable[], price: Price | null): SpendTotals {
  const paid = units.filter((t) => !t.cacheHit);
  const cached = units.filter((t) => t.cacheHit);
  const withUsage = units.filter((t) => t.usage !== null);
  const noAnswer = paid.filter((t) => t.billedNoAnswer !== undefined).map(noAnswerUnit);
  const billed = [...withUsage, ...noAnswer];
  const known = price !== null || (billed.length > 0 && billed.every((t) => t.usage?.costUsd !== undefined));
  const noAnswerCost = known ? sumCosts(noAnswer, price) : null;
  const paidCost = known ? sumCosts(paid, price) : null;
  return {
    calls: units.reduce((sum, t) => sum + t.attempts, 0),
    paid: {
      trials: units.filter(sentThisRun).length,
      ...addBilled(sumBilled(paid), sumBilled(noAnswer)),
      costUsd: addCost(paidCost, noAnswerCost),
    },
    fromCache: { trials: cached.length, ...sumBilled(cached), savedUsd: known ? sumCosts(cached, price) : null },
    unknownUsage: units.filter((t) => t.usage === null && (t.answered || t.unrecorded)).length,
    ...(noAnswer.length > 0
      ? { billedNoAnswer: { trials: noAnswer.length, ...sumBilled(noAnswer), costUsd: noAnswerCost } }
      : {}),
  };
}

/** The totals of one subject's trials at its price (spendOf, trial by trial). */
export const spendOfTrials = (trials: readonly TrialRecord[], price: Price | null): SpendTotals =>
  spendOf(trials.map(billableOfTrial), price);

const addCost = (a: number | null, b: number | null): number | null => (a === null || b === null ? null : a + b);

/** Two billed-no-answer lines summed; absent when both are. */
function addNoAnswer(a: NoAnswerTotals | undefined, b: NoAnswerTotals | undefined): NoAnswerTotals | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  return { ...addBilled(a, b), trials: a.trials + b.trials, costUsd: addCost(a.costUsd, b.costUsd) };
}

/** The sum of two totals; a cost is null when either is. */
export function addSpend(a: SpendTotals, b: SpendTotals): SpendTotals {
  const billedNoAnswer = addNoAnswer(a.billedNoAnswer, b.billedNoAnswer);
  return {
    calls: a.calls + b.calls,
    paid: {
      ...addBilled(a.paid, b.paid),
      trials: a.paid.trials + b.paid.trials,
      costUsd: addCost(a.paid.costUsd, b.paid.costUsd),
    },
    fromCache: {
      ...addBilled(a.fromCache, b.fromCache),
      trials: a.fromCache.trials + b.fromCache.trials,
      savedUsd: addCost(a.fromCache.savedUsd, b.fromCache.savedUsd),
    },
    unknownUsage: a.unknownUsage + b.unknownUsage,
    ...(billedNoAnswer ? { billedNoAnswer } : {}),
  };
}

/** Totals of nothing: 0 everywhere; the costs 0 when they can be known, else null. */
export function noSpend(costKnown: boolean): SpendTotals {
  const zero = { trials: 0, prompt: 0, cachedPrompt: 0, completion: 0, reasoning: 0 };
  const cost = costKnown ? 0 : null;
  return { calls: 0, paid: { ...zero, costUsd: cost }, fromCache: { ...zero, savedUsd: cost }, unknownUsage: 0 };
}

const addNullable = (a: number | null, b: number | null): number | null => (a === null || b === null ? null : a + b);

type AssayEntry = Omit<AssayUsage, 'records'>;

/** Two assay usages summed: a report sums its records (one each), a merge sums whole runs' (merge/spend.ts). */
export function addAssayUsage(x: AssayUsage, y: AssayUsage): AssayUsage {
  const unrecordedTrials = (x.unrecordedTrials ?? 0) + (y.unrecordedTrials ?? 0);
  return {
    records: x.records + y.records,
    trials: x.trials + y.trials,
    finalCallPromptTokens: addNullable(x.finalCallPromptTokens, y.finalCallPromptTokens),
    finalCallCompletionTokens: addNullable(x.finalCallCompletionTokens, y.finalCallCompletionTokens),
    ...(unrecordedTrials > 0 ? { unrecordedTrials } : {}),
  };
}

function sumAssays(entries: readonly AssayEntry[]): AssayUsage | undefined {
  if (entries.length === 0) return undefined;
  const noRecords: AssayUsage = { records: 0, trials: 0, finalCallPromptTokens: 0, finalCallCompletionTokens: 0 };
  return entries.reduce<AssayUsage>(
    (sum, e) =>
      addAssayUsage(sum, {
        records: 1,
        trials: e.trials,
        finalCallPromptTokens: e.finalCallPromptTokens,
        finalCallCompletionTokens: e.finalCallCompletionTokens,
        ...(e.unrecordedTrials ? { unrecordedTrials: e.unrecordedTrials } : {}),
      }),
    noRecords,
  );
}

export interface SpendInput {
  /** The report's cells in report order, each with the subject that answered it. */
  cells: ReadonlyArray<{ cell: CellResult; subject: string }>;
  /** SCC and secondary-assay records in report order, each with its subject. */
  assays: ReadonlyArray<{ record: SccRecord | SccAssayRecord; subject: string }>;
  subjects: readonly SubjectIdentity[];
  prices: Prices;
  limit?: SpendLimitReport;
}

/** The report's `spend` section: the cells' trials and the assays' calls, each priced at its subject's price. */
export function buildSpend(input: SpendInput): Spend {
  const priceOf = new Map(input.subjects.map((s) => [s.spec, priceFor(input.prices, s)]));
  const price = (spec: string) => priceOf.get(spec) ?? null;
  const cells = input.cells.map(({ cell, subject }) => ({
    project: cell.project,
    task: cell.task,
    variant: cell.variant,
    level: cell.level,
    subject,
    ...spendOfTrials(cell.trials, price(subject)),
  }));
  const assays = input.assays.map(({ record, subject }) => {
    const spent = assaySpentOf(record);
    const assay = record.kind === 'scc' ? ('scc' as const) : record.assay;
    const totals = spendOf(spent.billables, price(subject));
    return { project: record.project, task: record.task, assay, subject, ...spent.usage, ...totals };
  });
  // everything sent: the cells' trials and the assays' calls
  const entries: ReadonlyArray<SpendTotals & { project: string; subject: string }> = [...cells, ...assays];
  const subjects = input.subjects.map((s) => {
    const own = entries.filter((c) => c.subject === s.spec);
    const start = noSpend(price(s.spec) !== null || own.length > 0);
    return { subject: s.spec, price: price(s.spec), ...own.reduce((sum, c) => addSpend(sum, totalsOf(c)), start) };
  });
  const allPriced = input.subjects.every((s) => price(s.spec) !== null);
  const total = subjects.reduce<SpendTotals>((sum, s) => addSpend(sum, totalsOf(s)), noSpend(true));
  const projectNames = [...new Set(entries.map((c) => c.project))].sort();
  const projects = projectNames.map((project) => {
    const own = entries.filter((c) => c.project === project);
    const totals = own.reduce<SpendTotals>(
      (sum, c) => addSpend(sum, totalsOf(c)),
      noSpend(allPriced || own.length > 0),
    );
    const assayUsage = sumAssays(assays.filter((a) => a.project === project));
    return { project, ...totals, ...(assayUsage ? { assays: assayUsage } : {}) };
  });
  const assayTotal = sumAssays(assays);
  const known = input.subjects.length > 0 ? total : noSpend(false);
  return {
    currency: 'USD',
    priced: known.paid.costUsd !== null && known.fromCache.savedUsd !== null,
    total: { ...rounded(known), ...(assayTotal ? { assays: assayTotal } : {}) },
    subjects: subjects.map(rounded),
    projects: projects.map(rounded),
    cells: cells.map(rounded),
    assays: assays.map(rounded),
    ...(input.limit ? { limit: input.limit } : {}),
  };
}

/** 12 significant digits: the float noise of the sums (0.31499999999999995) goes, every real digit stays. */
export const roundUsd = (x: number | null): number | null => (x === null ? null : Number(x.toPrecision(12)));

/** The entry with its costs rounded (after every sum was taken unrounded). */
function rounded<T extends SpendTotals>(entry: T): T {
  return {
    ...entry,
    paid: { ...entry.paid, costUsd: roundUsd(entry.paid.costUsd) },
    fromCache: { ...entry.fromCache, savedUsd: roundUsd(entry.fromCache.savedUsd) },
    ...(entry.billedNoAnswer
      ? { billedNoAnswer: { ...entry.billedNoAnswer, costUsd: roundUsd(entry.billedNoAnswer.costUsd) } }
      : {}),
  };
}

/** The totals part of an entry (its identifying keys dropped), keys in the report's order. */
export function totalsOf({ calls, paid, fromCache, unknownUsage, billedNoAnswer }: SpendTotals): SpendTotals {
  return { calls, paid, fromCache, unknownUsage, ...(billedNoAnswer ? { billedNoAnswer } : {}) };
}

/** The subjects of the accounts that have no price (their cost is unknown unless the provider reported it). */
export const unpricedSubjects = (spend: Spend): string[] =>
  spend.subjects.filter((s) => s.price === null).map((s) => s.subject);

const amount = (a: SpendAmount): string =>
  `${a.calls} calls, ${thousands(a.tokens)} tokens${a.costUsd === null ? '' : `, ${usd(a.costUsd)}`}`;

/** What a project's SCC and secondary-assay records add to its row, and what of it is not priced. */
export function assayNote(a: AssayUsage): string {
  const head =
    `${a.records} SCC and secondary-assay records, ${thousands(a.trials)} trials issued: the row counts every call ` +
    'they made, budget doublings included.';
  if (!a.unrecordedTrials) return head;
  const kept =
    a.finalCallPromptTokens === null || a.finalCallCompletionTokens === null
      ? 'no token counts kept'
      : `${thousands(a.finalCallPromptTokens)} prompt and ${thousands(a.finalCallCompletionTokens)} completion tokens of each trial's final call kept`;
  return `${head} ${a.unrecordedTrials} of the trials are of records written before their usage was kept: not priced, their tokens in no sum (${kept}).`;
}

/** The spending limit in one line: the limits, what was spent, what stopped the run, the overshoot and its bound. */
export function limitLine(limit: SpendLimitReport): string {
  const limits = [
    limit.limits.maxCost !== undefined ? `cost ${usd(limit.limits.maxCost)}` : null,
    limit.limits.maxTokens !== undefined ? `${thousands(limit.limits.maxTokens)} tokens` : null,
    limit.limits.maxCalls !== undefined ? `${limit.limits.maxCalls} calls` : null,
  ].filter((x) => x !== null);
  const stop =
    limit.stoppedBy === null
      ? 'not reached'
      : limit.stoppedBy === 'interrupt'
        ? 'the run was interrupted'
        : `the run stopped at its ${limit.stoppedBy} limit`;
  return (
    `Spending limit ${limits.join(' · ') || '(none)'}: spent ${amount(limit.spent)}; ${stop}; ` +
    `${limit.notSent} trials not sent (outcome budget, missing data); ` +
    `overshoot ${amount(limit.overshoot)} (at most ${amount(limit.overshootBound)}).`
  );
}
