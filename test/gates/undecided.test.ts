import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../reporters/projections/markdown.js';
import { undecidedPasses } from '../../src/gates/index.js';
import { evaluateGates } from '../../src/gates/threshold.js';
import { PyRandom } from '../../src/rng/index.js';
import type { CollapseFit } from '../../src/schema/fit.js';
import { sampleBinomial } from '../../src/stats/binomial.js';
import { estimateRetention } from '../../src/stats/estimate.js';
import { clopperPearson } from '../../src/stats/intervals.js';
import { rateTrials, retentionTrialsPerCell, twoRateTrials } from '../../src/stats/sample-size.js';
import { fixtureReport } from '../report/html/support.js';
import { retentionFit } from '../support/records.js';

const DEPTHS = [5, 10, 15];
const counts = (n: number) => DEPTHS.map((depth) => ({ depth, n, correct: Math.round(n * 0.87 ** depth) }));

describe('a gate its sample cannot decide', () => {
  it('says so on the gate line, with the trials per cell that would decide, and keeps the verdict', () => {
    const fit = retentionFit({ pd: 0.87, ci95: [0.71, 0.97], counts: counts(1) });
    const [failed] = evaluateGates('d2', fit, { minRetention: 0.9 });
    const n = retentionTrialsPerCell(0.9, 0.03, DEPTHS);
    expect(failed?.passed).toBe(false);
    expect(failed?.message).toBe(
      `gate d2.minRetention FAILED (hard): d2 p_d = 0.870 [0.710, 0.970] (95% CI): point estimate 0.870 is below 0.9 (no error control); undecided at this sample size: p_d 0.870 [0.710, 0.970] vs 0.9 — about ${n} trials per cell would decide a difference of 0.03`,
    );
    // the same interval on the passing side: a pass by luck is flagged the same way
    const [lucky] = evaluateGates('d2', retentionFit({ pd: 0.92, ci95: [0.71, 0.97], counts: counts(1) }), {
      minRetention: 0.9,
    });
    expect(lucky?.passed).toBe(true);
    expect(lucky?.message).toMatch(
      /passed .*; undecided at this sample size: p_d 0.920 \[0.710, 0.970\] vs 0.9 — about \d+ trials per cell would decide a difference of 0.02$/,
    );
    // the lower-bound evidence fails on the same data, and is as undecided
    const [lower] = evaluateGates('d2', fit, { minRetention: { value: 0.9, mode: 'hard', evidence: 'lower' } });
    expect(lower?.message).toContain('; undecided at this sample size');
  });

  it('is silent when the interval excludes the threshold, on either side', () => {
    const above = retentionFit({ pd: 0.951, ci95: [0.944, 0.957] });
    const below = retentionFit({ pd: 0.8, ci95: [0.75, 0.85] });
    for (const fit of [above, below]) {
      for (const gate of evaluateGates('d2', fit, { minRetention: 0.9, minHorizon: 8 })) {
        expect(gate.message).not.toContain('undecided');
      }
    }
  });

  it('flags the lucky passes of a one-trial sweep at p = 0.85 against 0.9 (the issue’s six seeds)', () => {
    const depths = [5, 10, 15, 20, 25, 30, 35, 40, 45, 50];
    let passed = 0;
    for (let seed = 1; seed <= 6; seed++) {
      const rng = new PyRandom(seed);
      const sample = depths.map((depth) => ({ depth, n: 1, correct: sampleBinomial(rng, 1, 0.85 ** depth) }));
      const estimate = estimateRetention(sample, { seed, resamples: 400 });
      const fit = retentionFit({ pd: estimate.pd, ci95: estimate.ci95, counts: sample });
      const [gate] = evaluateGates('d2', fit, { minRetention: 0.9 });
      if (gate?.passed) {
        passed++;
        // no pass at one trial per cell goes without the note: its interval always holds 0.9
        expect(gate.message).toContain('undecided at this sample size');
      }
    }
    // 2 of these 6 seeds pass on the point estimate (the issue saw 3 of 6 with its seeds): each one flagged
    expect(passed).toBe(2);
  });

  it('translates a horizon threshold into p_d, and a collapse level into trials per level', () => {
    const fit = retentionFit({
      pd: 0.9,
      ci95: [0.8, 0.95],
      counts: counts(2),
      horizon: { '0.5': { value: 6.58, ci95: [3.1, 13.5] } },
    });
    const [horizon] = evaluateGates('d2', fit, { minHorizon: 8 });
    const p0 = 0.5 ** (1 / 8);
    expect(horizon?.message).toContain(
      `; undecided at this sample size: H_0.5 6.58 [3.10, 13.50] vs 8 (p_d ${p0.toFixed(3)}) — about ${retentionTrialsPerCell(p0, 0.02, DEPTHS)} trials per cell would decide a difference in p_d of 0.02`,
    );
    const collapse = {
      kind: 'collapse',
      project: 'puzzles',
      task: 'hanoi',
      status: 'ok',
      levels: [],
      collapseThreshold: { levelIndex: 3, ci95: [2, 5] },
    } as unknown as CollapseFit;
    const [gate] = evaluateGates('puzzles', collapse, { collapseNoEarlierThan: 4 });
    expect(gate?.message).toContain(
      `undecided at this sample size: λ* L3 [L2.00, L5.00] vs L4 — about ${twoRateTrials(0.1)} trials per level would see an accuracy step of 0.1 between adjacent levels`,
    );
  });
});

describe('a pass its sample could not decide', () => {
  it('is listed under the gates in summary.md beside the failures; a decided pass is not', () => {
    const fit = retentionFit({ pd: 0.92, ci95: [0.71, 0.97], counts: counts(1) });
    const [lucky] = evaluateGates('d2', fit, { minRetention: 0.9 });
    const [sure] = evaluateGates('d1', retentionFit({ project: 'd1', task: 'd1' }), { minRetention: 0.9 });
    if (!lucky || !sure) throw new Error('no gate evaluated');
    expect(undecidedPasses([lucky, sure])).toEqual([lucky]);
    const md = renderMarkdown({ ...fixtureReport(), gates: [lucky, sure] });
    expect(md).toContain(`- ${lucky.message}`);
    expect(md).not.toContain(`- ${sure.message}`);
  });
});

describe('the TFBC rate and the counting capacity when their sample cannot decide', () => {
  it('a TFBC rate whose exact interval holds the threshold says so, with the correct answers that would decide', () => {
    // 2 of 20 correct answers with a divergent trace: 0.100, exact interval [0.012, 0.317], against at most 0.15
    const fit = retentionFit({ correct: 20, tfbc: 2, tfbcRate: 0.1 });
    const [gate] = evaluateGates('d2', fit, { maxTfbcRate: 0.15 });
    const [lower, upper] = clopperPearson(2, 20);
    expect(gate?.passed).toBe(true);
    expect(gate?.message).toMatch(
      new RegExp(
        `; undecided at this sample size: TFBC rate 0\\.100 \\[${lower.toFixed(3)}, ${upper.toFixed(3)}\\] \\(2/20\\) vs 0\\.15 — about ${rateTrials(0.15, 0.05)} correct answers in all would decide a difference of 0\\.05$`,
      ),
    );
    // a lucky pass: listed beside the failures
    expect(undecidedPasses(gate ? [gate] : [])).toHaveLength(1);
    // the same rate on 2,000 correct answers: decided, silent
    const [decided] = evaluateGates('d2', retentionFit({ correct: 2000, tfbc: 200, tfbcRate: 0.1 }), {
      maxTfbcRate: 0.15,
    });
    expect(decided?.message).not.toContain('undecided');
    // no correct answer: no rate, nothing to say
    const [none] = evaluateGates('d2', retentionFit({ correct: 0, tfbc: 0, tfbcRate: null }), { maxTfbcRate: 0.15 });
    expect(none?.message).not.toContain('undecided');
  });

  it('a counting capacity whose threshold lies in the ladder’s last step, or above its longest length, says so', () => {
    const scc = (cc: number, ccUpper: number | null) =>
      ({ kind: 'scc', task: 'scc-count', cc, ccLower: cc, ccUpper, bounded: ccUpper !== null }) as const;
    const [between] = evaluateGates('scc', scc(120, 140), { minCountingCapacity: 130 });
    expect(between?.passed).toBe(false);
    expect(between?.message).toContain(
      '; undecided at this sample size: CC 120 vs 130 — the ladder passed 120 and failed 140, and asks no length between them',
    );
    const [above] = evaluateGates('scc', scc(1000, null), { minCountingCapacity: 1200 });
    expect(above?.message).toContain(
      'undecided at this sample size: CC 1000 vs 1200 — the ladder passed its longest length and asks none above it',
    );
    // decided: passed at or above the threshold, or failed at or below it
    for (const [record, n] of [
      [scc(120, 140), 120],
      [scc(120, 140), 140],
      [scc(120, 140), 200],
    ] as const) {
      const [gate] = evaluateGates('scc', record, { minCountingCapacity: n });
      expect(gate?.message, `${n}`).not.toContain('undecided');
    }
  });
});
