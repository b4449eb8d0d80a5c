import { z } from 'zod';
import { sumBilled } from '../assays/sweep/summarize-cell.js';
import type { CellResult } from '../schema/cell.js';
import type { AssayUsage, SccAssayRecord, SccRecord, Spend, SpendTotals } from '../schema/report.js';
import type { Price, Prices, SpendAmount, SpendLimitReport } from '../schema/spend.js';
import type { SubjectIdentity } from '../schema/subject.js';
import type { TrialRecord } from '../schema/trial.js';
import { billedTokens, costOf, priceFor } from '../spend/price.js';
import { isMissing } from '../tasks/outcome.js';
import { thousands, usd } from './format.js';

/**
 * The accounts of a run (ceilingbench.json `spend`): every figure is a sum over trial records, so the same run
 * gives the same bytes. A cost is the provider's own figure for a trial when it reported one, else the trial's
 * billed tokens at the subject's price; a group whose cost cannot be known that way has cost null.
 */

/** A trial answered by requests sent in this run (a cache hit sent none; a trial stopped before sending, neither). */
const sentThisRun = (t: TrialRecord): boolean => !t.cacheHit && t.attempts > 0;

/** What a trial's answer cost (or, from the cache, would have cost); 0 without usage (nothing to bill). */
function trialCost(t: TrialRecord, price: Price | null): number | null {
  if (t.usage === null) return 0;
  if (t.usage.costUsd !== undefined) return t.usage.costUsd;
  return price ? costOf(billedTokens(t.usage), price) : null;
}

const sumCosts = (trials: readonly TrialRecord[], price: Price | null): number | null => {
  let sum = 0;
  for (const t of trials) {
    const cost = trialCost(t, price);
    if (cost === null) return null;
    sum += cost;
  }
  return sum;
};

/**
 * The totals of one subject's trials at its price. The cost is known when the subject has a price, or when every
 * trial with usage carries the provider's cost (and there is one); otherwise it is null — paid and saved alike.
 */
export function spendOfTrials(trials: readonly TrialRecord[], price: Price | null): SpendTotals {
  const paid = trials.filter((t) => !t.cacheHit);
  const cached = trials.filter((t) => t.cacheHit);
  const withUsage = trials.filter((t) => t.usage !== null);
  const known = price !== null || (withUsage.length > 0 && withUsage.every((t) => t.usage?.costUsd !== undefined));
  return {
    calls: trials.reduce((sum, t) => sum + t.attempts, 0),
    paid: {
      trials: trials.filter(sentThisRun).length,
      ...sumBilled(paid),
      costUsd: known ? sumCosts(paid, price) : null,
    },
    fromCache: { trials: cached.length, ...sumBilled(cached), savedUsd: known ? sumCosts(cached, price) : null },
    unknownUsage: trials.filter((t) => t.usage === null && !isMissing(t.outcome)).length,
  };
}

const addCost = (a: number | null, b: number | null): number | null => (a === null || b === null ? null : a + b);

/** The sum of two totals; a cost is null when either is. */
export function addSpend(a: SpendTotals, b: SpendTotals): SpendTotals {
  return {
    calls: a.calls + b.calls,
    paid: {
      trials: a.paid.trials + b.paid.trials,
      prompt: a.paid.prompt + b.paid.prompt,
      cachedPrompt: a.paid.cachedPrompt + b.paid.cachedPrompt,
      completion: a.paid.completion + b.paid.completion,
      reasoning: a.paid.reasoning + b.paid.reasoning,
      costUsd: addCost(a.paid.costUsd, b.paid.costUsd),
    },
    fromCache: {
      trials: a.fromCache.trials + b.fromCache.trials,
      prompt: a.fromCache.prompt + b.fromCache.prompt,
      cachedPrompt: a.fromCache.cachedPrompt + b.fromCache.cachedPrompt,
      completion: a.fromCache.completion + b.fromCache.completion,
      reasoning: a.fromCache.reasoning + b.fromCache.reasoning,
      savedUsd: addCost(a.fromCache.savedUsd, b.fromCache.savedUsd),
    },
    unknownUsage: a.unknownUsage + b.unknownUsage,
  };
}

/** Totals of nothing: 0 everywhere; the costs 0 when they can be known, else null. */
export function noSpend(costKnown: boolean): SpendTotals {
  const zero = { trials: 0, prompt: 0, cachedPrompt: 0, completion: 0, reasoning: 0 };
  const cost = costKnown ? 0 : null;
  return { calls: 0, paid: { ...zero, costUsd: cost }, fromCache: { ...zero, savedUsd: cost }, unknownUsage: 0 };
}

// ── SCC records: what they keep of their usage (loose views: `result` is unknown in ceilingbench.json) ──────────
const tokensView = z.object({ inputTokens: z.number().nullable(), tokens: z.number().nullable() });
const sccUsageView = z.object({
  calls: z.number(),
  /** Absent when the preflight was not needed. */
  preflight: tokensView.optional(),
  tiers: z.array(z.object({ trials: z.array(tokensView) })),
});
const motifUsageView = z.object({ rows: z.array(z.object({ calls: z.number() })) });
const trialsUsageView = z.object({
  trials: z.array(z.object({ inputTokens: z.number().nullable(), outputTokens: z.number().nullable() })),
});

type AssayEntry = Omit<AssayUsage, 'records'>;

const sumOf = (values: ReadonlyArray<number | null>): number => values.reduce<number>((s, v) => s + (v ?? 0), 0);

/** What an SCC record or a secondary assay's keeps of its usage; null when its result has none of it. */
export function assayUsageOf(record: SccRecord | SccAssayRecord): AssayEntry | null {
  if (record.kind === 'scc' || record.assay === 'motif') {
    const motif = record.kind === 'sccAssay' ? motifUsageView.safeParse(record.result) : null;
    if (motif) {
      if (!motif.success) return null;
      const trials = motif.data.rows.reduce((s, r) => s + r.calls, 0);
      return { trials, finalCallPromptTokens: null, finalCallCompletionTokens: null };
    }
    const scc = sccUsageView.safeParse(record.result);
    if (!scc.success) return null;
    const trials = [...(scc.data.preflight ? [scc.data.preflight] : []), ...scc.data.tiers.flatMap((t) => t.trials)];
    return {
      trials: scc.data.calls,
      finalCallPromptTokens: sumOf(trials.map((t) => t.inputTokens)),
      finalCallCompletionTokens: sumOf(trials.map((t) => t.tokens)),
    };
  }
  const parsed = trialsUsageView.safeParse(record.result);
  if (!parsed.success) return null;
  return {
    trials: parsed.data.trials.length,
    finalCallPromptTokens: sumOf(parsed.data.trials.map((t) => t.inputTokens)),
    finalCallCompletionTokens: sumOf(parsed.data.trials.map((t) => t.outputTokens)),
  };
}

const addNullable = (a: number | null, b: number | null): number | null => (a === null || b === null ? null : a + b);

function sumAssays(entries: readonly AssayEntry[]): AssayUsage | undefined {
  if (entries.length === 0) return undefined;
  const [first, ...rest] = entries;
  const sum: AssayUsage = { records: 1, ...(first as AssayEntry) };
  for (const e of rest) {
    sum.records++;
    sum.trials += e.trials;
    sum.finalCallPromptTokens = addNullable(sum.finalCallPromptTokens, e.finalCallPromptTokens);
    sum.finalCallCompletionTokens = addNullable(sum.finalCallCompletionTokens, e.finalCallCompletionTokens);
  }
  return sum;
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

/** The report's `spend` section. */
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
  const subjects = input.subjects.map((s) => {
    const own = cells.filter((c) => c.subject === s.spec);
    const start = noSpend(price(s.spec) !== null || own.length > 0);
    return { subject: s.spec, price: price(s.spec), ...own.reduce((sum, c) => addSpend(sum, totalsOf(c)), start) };
  });
  const allPriced = input.subjects.every((s) => price(s.spec) !== null);
  const total = subjects.reduce<SpendTotals>((sum, s) => addSpend(sum, totalsOf(s)), noSpend(true));
  const assays = input.assays.flatMap(({ record, subject }) => {
    const usage = assayUsageOf(record);
    if (!usage) return [];
    const assay = record.kind === 'scc' ? ('scc' as const) : record.assay;
    return [{ project: record.project, task: record.task, assay, subject, ...usage }];
  });
  const projectNames = [...new Set([...cells.map((c) => c.project), ...assays.map((a) => a.project)])].sort();
  const projects = projectNames.map((project) => {
    const own = cells.filter((c) => c.project === project);
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
    assays,
    ...(input.limit ? { limit: input.limit } : {}),
  };
}

/** 12 significant digits: the float noise of the sums (0.31499999999999995) goes, every real digit stays. */
const round = (x: number | null): number | null => (x === null ? null : Number(x.toPrecision(12)));

/** The entry with its costs rounded (after every sum was taken unrounded). */
function rounded<T extends SpendTotals>(entry: T): T {
  return {
    ...entry,
    paid: { ...entry.paid, costUsd: round(entry.paid.costUsd) },
    fromCache: { ...entry.fromCache, savedUsd: round(entry.fromCache.savedUsd) },
  };
}

/** The totals part of an entry (its identifying keys dropped). */
function totalsOf(entry: SpendTotals): SpendTotals {
  return { calls: entry.calls, paid: entry.paid, fromCache: entry.fromCache, unknownUsage: entry.unknownUsage };
}

/** The subjects of the accounts that have no price (their cost is unknown unless the provider reported it). */
export const unpricedSubjects = (spend: Spend): string[] =>
  spend.subjects.filter((s) => s.price === null).map((s) => s.subject);

const amount = (a: SpendAmount): string =>
  `${a.calls} calls, ${thousands(a.tokens)} tokens${a.costUsd === null ? '' : `, ${usd(a.costUsd)}`}`;

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
