import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { replaySeed, sccSummaryModelSchema, sccSummarySchema } from '../../src/assays/scc/replay.js';

const released = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../fixtures/scc/logs/closed.summary.json', import.meta.url)), 'utf8'),
);
const claude = released.models['anthropic/claude-3.5-haiku'];

/** The entry the summary writer emits for a preflight-skipped model (docs/spec/scc.md §15.2). */
const skippedEntry = {
  skipped: true,
  skip_reason: 'preflight_failed',
  cc: 0,
  cc_upper_bound: 32,
  bounded: null,
  inferred_seed: null,
  rng_draw_mode: null,
  learned_max_output_tokens: null,
  evaluations: [],
};

describe('closed.summary.json schema: every shape the summary writer emits', () => {
  it('accepts all 44 released models', () => {
    const summary = sccSummarySchema.parse(released);
    expect(Object.keys(summary.models)).toHaveLength(44);
    expect(summary.invalid).toEqual({});
  });

  it('accepts a preflight-skipped model: cc 0, nulls for the keys its run record lacks, no evaluations', () => {
    const model = sccSummaryModelSchema.parse(skippedEntry);
    expect(model).toMatchObject({
      skipped: true,
      cc: 0,
      cc_upper_bound: 32,
      bounded: null,
      inferred_seed: null,
      rng_draw_mode: 'upfront',
      evaluations: [],
    });
    // No target was drawn, so any seed replays the preflight.
    expect(replaySeed(model)).toBe(0);
  });

  it('accepts a model without evaluations, an unbounded one and tiers without a parsed answer', () => {
    const { evaluations: _, ...noEvaluations } = claude;
    expect(sccSummaryModelSchema.parse(noEvaluations).evaluations).toBeNull();
    expect(sccSummaryModelSchema.parse({ ...claude, evaluations: null }).evaluations).toBeNull();
    const unbounded = sccSummaryModelSchema.parse({ ...claude, cc: 20000, cc_upper_bound: null, bounded: false });
    expect(unbounded).toMatchObject({ cc_upper_bound: null, bounded: false });
    const noParse = { ...claude.evaluations[0], parse_rate: 0, mae: null, mape: null, mean_signed_error: null };
    expect(sccSummaryModelSchema.parse({ ...claude, evaluations: [noParse] }).evaluations?.[0].mape).toBeNull();
    const older = { ...claude, learned_max_output_tokens: null, published_csv: null, preflight: null };
    expect(sccSummaryModelSchema.safeParse(older).success).toBe(true);
  });

  it('puts a malformed model aside with its first problem and keeps the others', () => {
    const summary = sccSummarySchema.parse({
      models: {
        good: claude,
        'wrong-type': { ...skippedEntry, cc: '0' },
        'bad-phase': { ...claude, evaluations: [{ ...claude.evaluations[0], phase: 'warmup' }] },
        'not-an-object': 7,
      },
    });
    expect(Object.keys(summary.models)).toEqual(['good']);
    expect(summary.invalid['wrong-type']).toMatch(/^field 'cc' .*expected number, received string/);
    expect(summary.invalid['bad-phase']).toMatch(/^field 'evaluations\.0\.phase'/);
    expect(summary.invalid['not-an-object']).toMatch(/expected object/);
  });

  it('a model named __proto__ cannot replace the prototype of the models map', () => {
    const summary = sccSummarySchema.parse(JSON.parse(`{"models": {"__proto__": ${JSON.stringify(claude)}}}`));
    expect(Object.getPrototypeOf(summary.models)).toBe(Object.prototype);
    expect((summary.models as { cc?: unknown }).cc).toBeUndefined();
  });

  it('refuses to replay a model that ran tiers without a seed', () => {
    const model = sccSummaryModelSchema.parse({ ...claude, inferred_seed: null });
    expect(() => replaySeed(model)).toThrow(/inferred_seed is null for a model that ran tiers/);
  });
});
