import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assayUsageOf } from '../../reporters/projections/assay-spend.js';
import { buildReport } from '../../reporters/projections/build.js';
import { assemblePage } from '../../reporters/projections/html/page.js';
import { renderJunit } from '../../reporters/projections/junit.js';
import { renderMarkdown } from '../../reporters/projections/markdown.js';
import { mergeSpend } from '../../reporters/projections/merge/spend.js';
import { sccRecordOf } from '../../src/assays/scc/record.js';
import { runSccAssay } from '../../src/assays/scc/run.js';
import type { ChainUsage } from '../../src/schema/chain-usage.js';
import { type Report, reportSchema, type SpendTotals } from '../../src/schema/report.js';
import type { Usage } from '../../src/schema/trial.js';
import { billedTokens, costOf } from '../../src/spend/price.js';
import { createSubject } from '../../src/subjects/index.js';
import {
  dualTaskResult,
  dualTrial,
  motifResult,
  motifRow,
  sccResult,
  sccTier,
  sccTrial,
} from '../support/assay-results.js';
import {
  cellArb,
  cellOf,
  entry,
  PRICE,
  PRICES,
  run,
  sumTotals,
  totalsOf,
  trial,
  u,
  usageArb,
} from './spend-support.js';

// The SCC and secondary-assay records in the accounts: priced as the cells, in every total.
describe('spend: SCC and secondary-assay records', () => {
  it('an SCC record is priced with the cells, in its project, its subject and the total', async () => {
    const result = await runSccAssay(await createSubject('sim:counting?cc=64'), { seed: 7 });
    const scc = sccRecordOf(result);
    const trials = [...(result.preflight ? [result.preflight] : []), ...result.tiers.flatMap((t) => t.trials)];
    const chains = [...trials.map((t) => t.usage), ...result.tiers.flatMap((t) => t.abortedUsage ?? [])];
    const attempts = chains.reduce((s, c) => s + (c?.attempts ?? 0), 0);
    const prompt = chains.reduce((s, c) => s + (c?.paid.usage?.promptTokens ?? 0), 0);
    const completion = chains.reduce((s, c) => s + (c?.paid.usage?.completionTokens ?? 0), 0);
    expect(attempts).toBeGreaterThan(0);
    const cell = cellOf('d2', 5, [trial('paid', 0, u(5, 5))]);
    const report = buildReport([entry(scc), entry(cell)], { ...run, prices: PRICES });
    const spend = report.spend as NonNullable<Report['spend']>;
    const project = spend.projects.find((p) => p.project === 'scc');
    expect(project).toMatchObject({
      calls: attempts,
      paid: { prompt, completion },
      unknownUsage: 0,
      assays: {
        records: 1,
        trials: result.calls,
        finalCallPromptTokens: trials.reduce((s, t) => s + (t.inputTokens ?? 0), 0),
        finalCallCompletionTokens: result.tokensSpent,
      },
    });
    expect(project?.paid.costUsd).toBeCloseTo(costOf({ prompt, cachedPrompt: 0, completion, reasoning: 0 }, PRICE), 12);
    expect(spend.total).toMatchObject({ calls: attempts + 1, paid: { prompt: prompt + 5 } });
    expect(spend.priced).toBe(true);
    expect(renderMarkdown(report)).toContain(
      `- scc: 1 SCC and secondary-assay records, ${result.calls} trials issued: the row counts every call`,
    );
    expect(assemblePage(report, [], [])).toContain('<h3>SCC and secondary-assay records</h3>');
    const xml = renderJunit(report, [entry(scc), entry(cell)]);
    // on the scc suite and on the SCC record's own case
    expect(xml.match(new RegExp(`<property name="spend_calls" value="${attempts}"/>`, 'g'))).toHaveLength(2);
  });

  it('a record written before its usage was kept: unknown usage, unpriced, its final calls shown — never 0', () => {
    const dual = {
      kind: 'sccAssay' as const,
      assay: 'dual-task' as const,
      project: 'scc',
      task: 'dual',
      summary: {},
      result: dualTaskResult({
        trials: [
          dualTrial({ inputTokens: 10, outputTokens: 4, answered: true }),
          dualTrial({ inputTokens: null, outputTokens: null, answered: false }),
        ],
      }),
    };
    const report = buildReport([entry(dual), entry(cellOf('d2', 5, [trial('paid', 0, u(5, 5))]))], {
      ...run,
      prices: PRICES,
    });
    expect(reportSchema.safeParse(report).error).toBeUndefined();
    const spend = report.spend as NonNullable<Report['spend']>;
    expect(spend.projects.find((p) => p.project === 'scc')).toMatchObject({
      calls: 2,
      paid: { trials: 2, prompt: 0, costUsd: null },
      unknownUsage: 2,
      assays: { records: 1, trials: 2, finalCallPromptTokens: 10, finalCallCompletionTokens: 4, unrecordedTrials: 2 },
    });
    expect(spend.total.paid.costUsd).toBeNull();
    expect(spend.priced).toBe(false);
    expect(renderMarkdown(report)).toContain(
      "2 of the trials are of records written before their usage was kept: not priced, their tokens in no sum (10 prompt and 4 completion tokens of each trial's final call kept).",
    );
    expect(renderMarkdown(report)).not.toContain('answered trials reported no usage');
    // merged runs keep the count, so the merged summary says the same of them
    const merged = mergeSpend([spend, spend]);
    expect(merged?.total.assays?.unrecordedTrials).toBe(4);
    expect(merged?.projects.find((p) => p.project === 'scc')?.assays).toMatchObject({
      records: 2,
      unrecordedTrials: 4,
    });
    // a motif ablation of then kept calls, not tokens: counted as calls, never as 0 tokens
    const rows = [motifRow({ calls: 30 }), motifRow({ calls: 12 })];
    const motif = { ...dual, assay: 'motif' as const, task: 'count', result: motifResult({ rows }) };
    expect(assayUsageOf(motif)).toEqual({
      trials: 42,
      finalCallPromptTokens: null,
      finalCallCompletionTokens: null,
      unrecordedTrials: 42,
    });
  });
});

// ── property: the assays are in the accounts, call by call ─────────────────────────────────────────────────
const groupArb = fc.oneof(
  fc.constant({ calls: 0, usage: null }),
  fc.record({ calls: fc.integer({ min: 1, max: 3 }), usage: fc.option(usageArb, { nil: null }) }),
);
const chainArb = fc
  .record({
    paid: groupArb,
    fromCache: groupArb,
    end: fc.constantFrom('answer' as const, 'error' as const, 'not-sent' as const),
    retries: fc.integer({ min: 0, max: 2 }),
  })
  .map(
    ({ paid, fromCache, end, retries }): ChainUsage => ({
      calls: paid.calls + fromCache.calls + (end === 'answer' ? 0 : 1),
      attempts: paid.calls + (end === 'error' ? 1 : 0) + (paid.calls > 0 || end === 'error' ? retries : 0),
      paid,
      fromCache,
      end,
    }),
  );
const assayArb = fc.oneof(
  fc
    .record({
      trials: fc.array(chainArb, { maxLength: 8 }),
      aborted: fc.array(chainArb, { maxLength: 3 }),
    })
    .map(({ trials, aborted }) => ({
      kind: 'scc' as const,
      project: 'scc',
      task: 'count',
      cc: 1,
      ccLower: 1,
      ccUpper: 2,
      bounded: true,
      result: sccResult({
        calls: trials.length + aborted.length,
        tiers: [
          sccTier({
            trials: trials.map((usage) => sccTrial({ inputTokens: 1, tokens: 1, usage })),
            abortedUsage: aborted,
          }),
        ],
      }),
    })),
  fc.array(chainArb, { maxLength: 8 }).map((trials) => ({
    kind: 'sccAssay' as const,
    assay: 'dual-task' as const,
    project: 'scc-dual',
    task: 'dual',
    summary: {},
    result: dualTaskResult({ trials: trials.map((usage) => dualTrial({ inputTokens: 1, outputTokens: 1, usage })) }),
  })),
);

describe('spend: the assays are in the accounts (property)', () => {
  it('total = sum of cells + assays; an assay entry = the sum of its trials’ calls, at the price', () => {
    fc.assert(
      fc.property(
        fc.array(cellArb, { maxLength: 4 }),
        fc.array(assayArb, { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        (cellSpecs, generated, priced) => {
          const assays = generated.map((a, i) => ({ ...a, task: `${a.task}-${i}` }));
          const cells = cellSpecs.map((spec, i) =>
            entry(
              cellOf(
                spec.project,
                5 * (i + 1),
                spec.trials.map((t, j) => trial(t.kind, j, t.usage)),
              ),
            ),
          );
          const report = buildReport([...cells, ...assays.map((a) => entry(a))], {
            ...run,
            prices: priced ? PRICES : {},
          });
          const spend = report.spend as NonNullable<Report['spend']>;
          const entries = [...spend.cells, ...spend.assays.map((a) => a as SpendTotals & { project: string })];
          const close = (a: number | null, b: number | null) =>
            a === null || b === null ? expect(a).toBe(b) : expect(a).toBeCloseTo(b, 12);
          const same = (actual: SpendTotals, expected: SpendTotals) => {
            const strip = (t: SpendTotals) => ({
              ...totalsOf(t),
              paid: { ...t.paid, costUsd: 0 },
              fromCache: { ...t.fromCache, savedUsd: 0 },
            });
            expect(strip(actual)).toEqual(strip(expected));
            close(actual.paid.costUsd, expected.paid.costUsd);
            close(actual.fromCache.savedUsd, expected.fromCache.savedUsd);
          };
          same(spend.total, sumTotals(entries));
          for (const p of spend.projects) same(p, sumTotals(entries.filter((e) => e.project === p.project)));
          // each assay entry, from its records' chains: every call, paid apart from the cache
          expect(spend.assays).toHaveLength(assays.length);
          for (const record of assays) {
            // every generated trial keeps its usage
            const chains = (
              record.kind === 'scc'
                ? [...record.result.tiers[0].trials.map((t) => t.usage), ...(record.result.tiers[0].abortedUsage ?? [])]
                : record.result.trials.map((t) => t.usage)
            ) as ChainUsage[];
            const a = spend.assays.find((x) => x.task === record.task);
            // billed tokens: a reasoning count above the completion is billed on top of it (spend/price.ts)
            const billed = (u: Usage, key: 'promptTokens' | 'completionTokens') =>
              key === 'promptTokens' ? u.promptTokens : billedTokens(u).completion;
            const tokens = (group: 'paid' | 'fromCache', key: 'promptTokens' | 'completionTokens') =>
              chains.reduce((s, c) => {
                const u = c[group].usage;
                return s + (c[group].calls > 0 && u ? billed(u, key) : 0);
              }, 0);
            const unknown = chains.reduce(
              (s, c) => s + (['paid', 'fromCache'] as const).filter((g) => c[g].calls > 0 && !c[g].usage).length,
              0,
            );
            expect(a).toMatchObject({
              calls: chains.reduce((s, c) => s + c.attempts, 0),
              paid: { prompt: tokens('paid', 'promptTokens'), completion: tokens('paid', 'completionTokens') },
              fromCache: {
                trials: chains.filter((c) => c.fromCache.calls > 0).length,
                prompt: tokens('fromCache', 'promptTokens'),
              },
              unknownUsage: unknown,
            });
            const paidTokens = { ...(a as SpendTotals).paid };
            close(paidTokens.costUsd, priced ? costOf(paidTokens, PRICE) : null);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
