import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildReport } from '../../reporters/projections/build.js';
import { assemblePage } from '../../reporters/projections/html/page.js';
import { renderJunit } from '../../reporters/projections/junit.js';
import { renderMarkdown } from '../../reporters/projections/markdown.js';
import { type Report, reportSchema, type SpendTotals } from '../../src/schema/report.js';
import type { SpendLimitReport } from '../../src/schema/spend.js';
import type { Usage } from '../../src/schema/trial.js';
import { billedTokens, costOf } from '../../src/spend/price.js';
import {
  cellArb,
  cellOf,
  entry,
  MINI,
  PRICE,
  PRICES,
  ROUTER,
  run,
  sumTotals,
  totalsOf,
  trial,
  u,
} from './spend-support.js';

describe('spend: paid this run vs from the response cache', () => {
  const trials = [
    trial('paid', 0, u(1000, 200, { cachedPromptTokens: 800, reasoningTokens: 50 })),
    trial('paid', 1, u(1000, 300)),
    trial('cached', 2, u(900, 100)),
    trial('api', 3),
    trial('budget', 4),
    trial('silent', 5),
  ];
  const report = buildReport([entry(cellOf('d2', 5, trials))], { ...run, prices: PRICES });

  it('counts requests, trials and billed tokens apart for what was paid and what the cache answered', () => {
    expect(reportSchema.safeParse(report).error).toBeUndefined();
    const spend = report.spend;
    if (!spend) throw new Error('no spend section');
    expect(spend.total).toMatchObject({
      calls: 1 + 2 + 0 + 3 + 0 + 1,
      paid: { trials: 4, prompt: 2000, cachedPrompt: 800, completion: 500, reasoning: 50 },
      fromCache: { trials: 1, prompt: 900, cachedPrompt: 0, completion: 100, reasoning: 0 },
      unknownUsage: 1,
    });
    // the cell's own token sums say the same
    expect(report.cells[0].tokens).toMatchObject({
      prompt: 2900,
      cachedPrompt: 800,
      paid: { prompt: 2000, cachedPrompt: 800, completion: 500, reasoning: 50 },
      fromCache: { prompt: 900, cachedPrompt: 0, completion: 100, reasoning: 0 },
      unknownUsage: 1,
    });
  });

  it('prices cached input and reasoning at their own rates; the cache hit is "saved", not paid', () => {
    const spend = report.spend as NonNullable<Report['spend']>;
    // (200 · 0.15 + 800 · 0.075 + 150 · 0.6 + 50 · 0.9) + (1000 · 0.15 + 300 · 0.6), per million
    expect(spend.total.paid.costUsd).toBeCloseTo((30 + 60 + 90 + 45 + 150 + 180) / 1e6, 15);
    expect(spend.total.fromCache.savedUsd).toBeCloseTo((900 * 0.15 + 100 * 0.6) / 1e6, 15);
    expect(spend.priced).toBe(true);
    expect(spend.subjects).toEqual([expect.objectContaining({ subject: MINI.spec, price: PRICE })]);
  });

  it('prices a batch’s answers at the batch price — paid in this run (the last pass collected them) or from the cache', () => {
    const batched = (t: ReturnType<typeof trial>) => ({ ...t, batch: 'batch_1' });
    const paid = batched({ ...trial('paid', 0, u(1000, 200)), attempts: 1 });
    const cached = batched(trial('cached', 1, u(1000, 200)));
    const withBatch = (price: typeof PRICE & { batch?: { input: number; output: number } }) =>
      buildReport([entry(cellOf('d2', 5, [paid, cached]))], { ...run, prices: { 'gpt-4o-mini': price } }).spend;
    const listed = costOf(billedTokens(u(1000, 200)), PRICE);
    // no batch entry: half of each token price
    expect(withBatch(PRICE)?.total.paid).toMatchObject({ trials: 1, prompt: 1000, completion: 200 });
    expect(withBatch(PRICE)?.total.paid.costUsd).toBeCloseTo(listed / 2, 15);
    expect(withBatch(PRICE)?.total.fromCache.savedUsd).toBeCloseTo(listed / 2, 15);
    // the entry's own batch price
    const own = withBatch({ ...PRICE, batch: { input: 0.1, output: 0.2 } });
    expect(own?.total.paid.costUsd).toBeCloseTo((1000 * 0.1 + 200 * 0.2) / 1e6, 15);
  });

  it("prefers the provider's own cost (OpenRouter) to the price table, trial by trial", () => {
    const routed = [
      trial('paid', 0, u(1000, 200, { costUsd: 0.01 })),
      trial('cached', 1, u(1000, 200, { costUsd: 0.02 })),
    ];
    const withPrice = buildReport([entry(cellOf('d2', 5, routed), ROUTER)], {
      ...run,
      prices: { [ROUTER.spec]: PRICE },
    });
    expect(withPrice.spend?.total.paid.costUsd).toBe(0.01);
    expect(withPrice.spend?.total.fromCache.savedUsd).toBe(0.02);
    // no price needed when every trial carries the provider's cost
    const noPrice = buildReport([entry(cellOf('d2', 5, routed), ROUTER)], run);
    expect(noPrice.spend).toMatchObject({ priced: true, total: { paid: { costUsd: 0.01 } } });
    // one trial without it and no price: the cost is unknown, not the sum of what is known
    const mixed = buildReport([entry(cellOf('d2', 5, [...routed, trial('paid', 2, u(10, 10))]), ROUTER)], run);
    expect(mixed.spend).toMatchObject({ priced: false, total: { paid: { costUsd: null } } });
  });

  it('without a price: tokens only, cost null everywhere, and the summary says so', () => {
    const unpriced = buildReport([entry(cellOf('d2', 5, trials))], run);
    const spend = unpriced.spend as NonNullable<Report['spend']>;
    expect(spend.priced).toBe(false);
    for (const t of [spend.total, ...spend.subjects, ...spend.projects, ...spend.cells]) {
      expect(t.paid.costUsd).toBeNull();
      expect(t.fromCache.savedUsd).toBeNull();
    }
    expect(spend.total.paid.prompt).toBe(2000);
    const md = renderMarkdown(unpriced);
    expect(md).toContain(
      '| project | calls | trials paid / from cache | prompt tokens (cached) | completion tokens (reasoning) |\n',
    );
    expect(md).toContain('| d2 | 7 | 4 / 1 | 2,000 (800) | 500 (50) |\n');
    expect(md).toContain('Cost: not priced (no price for `openai:gpt-4o-mini`');
    expect(md).not.toMatch(/saved|\$/);
    const html = assemblePage(unpriced, [], []);
    expect(html).toContain('<section id="spend">');
    expect(html).not.toContain('saved by the cache');
  });

  it('summary.md, JUnit and HTML carry the spend, with the price', () => {
    const md = renderMarkdown(report);
    expect(md).toContain('## Spend');
    expect(md).toContain('| d2 | 7 | 4 / 1 | 2,000 (800) | 500 (50) | $0.000555 | $0.000195 |');
    expect(md).toContain('From the response cache: 1 trials, 900 prompt and 100 completion tokens, not sent again.');
    const xml = renderJunit(report, [entry(cellOf('d2', 5, trials))]);
    // once on the suite (the project), once on the cell's case
    for (const [key, value] of [
      ['spend_calls', '7'],
      ['spend_paid_trials', '4'],
      ['spend_cached_trials', '1'],
      ['spend_prompt_tokens', '2000'],
      ['spend_cached_prompt_tokens', '800'],
      ['spend_completion_tokens', '500'],
      ['spend_reasoning_tokens', '50'],
    ])
      expect(xml.match(new RegExp(`<property name="${key}" value="${value}"/>`, 'g'))).toHaveLength(2);
    expect(xml).toMatch(/<property name="spend_cost_usd" value="0\.000555"\/>/);
    const html = assemblePage(report, [], []);
    expect(html).toContain('<h2>Spend: calls, tokens and cost</h2>');
    expect(html).toContain('<td>$0.000555</td><td>$0.000195</td>');
    expect(html).toContain('in 0.15 · out 0.6 · cached in 0.075 · reasoning 0.9');
  });
});

describe('spend: the spending limit', () => {
  it('carries the limit record the budget ledger hands over, and renders it', () => {
    const limit: SpendLimitReport = {
      limits: { maxCalls: 100 },
      spent: { calls: 103, tokens: 51234, costUsd: 0.0123 },
      stoppedBy: 'maxCalls',
      notSent: 37,
      overshoot: { calls: 3, tokens: 1500, costUsd: 0.0004 },
      overshootBound: { calls: 4, tokens: 2000, costUsd: 0.0005 },
    };
    const report = buildReport([entry(cellOf('d2', 5, [trial('paid', 0, u(5, 5))]))], {
      ...run,
      prices: PRICES,
      spendLimit: limit,
    });
    expect(reportSchema.parse(report).spend?.limit).toEqual(limit);
    const line =
      'Spending limit 100 calls: spent 103 calls, 51,234 tokens, $0.0123; the run stopped at its maxCalls limit; ' +
      '37 trials not sent (outcome budget, missing data); overshoot 3 calls, 1,500 tokens, $0.0004 ' +
      '(at most 4 calls, 2,000 tokens, $0.0005).';
    expect(renderMarkdown(report)).toContain(`- ${line}`);
    expect(assemblePage(report, [], [])).toContain(`<p class="fail">${line}</p>`);
    expect(buildReport([entry(cellOf('d2', 5, []))], run).spend).not.toHaveProperty('limit');
    // a run stopped before any test left a record still states its limit
    const empty = buildReport([], { ...run, spendLimit: limit });
    expect(empty.spend).toMatchObject({ priced: false, projects: [], limit });
    expect(renderMarkdown(empty)).toContain(`## Spend\n\n- ${line}\n`);
    expect(assemblePage(empty, [], [])).toContain(`<p class="fail">${line}</p>`);
  });
});

// ── property: the accounts add up ─────────────────────────────────────────────────────────────────────────
describe('spend: the accounts add up (property)', () => {
  it('JUnit costs carry the rounded figure of the JSON, never the float noise of a sum (0.31499999999999995)', () => {
    fc.assert(
      fc.property(fc.array(cellArb, { minLength: 1, maxLength: 6 }), (specs) => {
        const entries = specs.map((spec, i) =>
          entry(
            cellOf(
              spec.project,
              5 * (i + 1),
              spec.trials.map((t, j) => trial(t.kind, j, t.usage)),
            ),
          ),
        );
        const xml = renderJunit(buildReport(entries, { ...run, prices: PRICES }), entries);
        for (const [, value] of xml.matchAll(/<property name="spend_(?:cost|saved)_usd" value="([^"]*)"\/>/g)) {
          expect(value).toBe(String(Number(Number(value).toPrecision(12))));
        }
      }),
      { numRuns: 60 },
    );
  });

  it('projects = sum over their cells; paid + cached + not sent = all trials; cost = costOf(summed tokens)', () => {
    fc.assert(
      fc.property(fc.array(cellArb, { minLength: 1, maxLength: 6 }), fc.boolean(), (specs, priced) => {
        const entries = specs.map((spec, i) =>
          entry(
            cellOf(
              spec.project,
              5 * (i + 1),
              spec.trials.map((t, j) => trial(t.kind, j, t.usage)),
            ),
          ),
        );
        const report = buildReport(entries, { ...run, prices: priced ? PRICES : {} });
        const spend = report.spend as NonNullable<Report['spend']>;
        const close = (a: number | null, b: number | null) => {
          if (a === null || b === null) return expect(a).toBe(b);
          expect(Math.abs(a - b)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(b)));
        };
        const expectTotals = (actual: SpendTotals, expected: SpendTotals) => {
          const { paid, fromCache, ...rest } = totalsOf(actual);
          const { paid: ePaid, fromCache: eCached, ...eRest } = totalsOf(expected);
          expect(rest).toEqual(eRest);
          expect({ ...paid, costUsd: 0 }).toEqual({ ...ePaid, costUsd: 0 });
          expect({ ...fromCache, savedUsd: 0 }).toEqual({ ...eCached, savedUsd: 0 });
          close(paid.costUsd, ePaid.costUsd);
          close(fromCache.savedUsd, eCached.savedUsd);
        };
        for (const project of spend.projects)
          expectTotals(project, sumTotals(spend.cells.filter((c) => c.project === project.project)));
        expectTotals(spend.total, sumTotals(spend.projects));
        expectTotals(spend.total, sumTotals(spend.subjects));
        for (const [i, cell] of report.cells.entries()) {
          const s = spend.cells[i];
          const notSent = cell.trials.filter((t) => !t.cacheHit && t.attempts === 0).length;
          expect(s.paid.trials + s.fromCache.trials + notSent).toBe(cell.n);
          expect(s.fromCache.trials).toBe(cell.cacheHits);
          expect(s.calls).toBe(cell.calls);
          const { trials: _p, costUsd: _c, ...paidTokens } = s.paid;
          const { trials: _f, savedUsd: _s, ...cachedTokens } = s.fromCache;
          expect(paidTokens).toEqual(cell.tokens.paid);
          expect(cachedTokens).toEqual(cell.tokens.fromCache);
          expect(s.unknownUsage).toBe(cell.tokens.unknownUsage ?? 0);
        }
        // no provider costs here: the cost is exactly the price applied to the summed tokens
        const { trials: _t, costUsd, ...paidTokens } = spend.total.paid;
        const { trials: _u, savedUsd, ...cachedTokens } = spend.total.fromCache;
        close(costUsd, priced ? costOf(paidTokens, PRICE) : null);
        close(savedUsd, priced ? costOf(cachedTokens, PRICE) : null);
        expect(spend.priced).toBe(priced);
        // and the billed tokens are those of billedTokens, trial by trial
        const billed = report.cells
          .flatMap((c) => c.trials)
          .filter((t) => !t.cacheHit && t.usage !== null)
          .reduce((sum, t) => sum + billedTokens(t.usage as Usage).cachedPrompt, 0);
        expect(spend.total.paid.cachedPrompt).toBe(billed);
      }),
      { numRuns: 150 },
    );
  });
});
