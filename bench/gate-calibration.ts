/**
 * Calibration of the retention gate's designs (issue 45): how often each fails a model that meets the threshold
 * (the false-alarm rate), how often it fails one a margin short (the power), and the calls it spends.
 *
 *   nice npx tsx bench/gate-calibration.ts [--runs 1000] [--adaptive-runs 200] [--threshold 0.9] [--margin 0.02]
 *     [--grid 40] [--batch 5] [--max 160] [--alpha 0.05] [--json out.json] [--only retention,tfbc,notWorseThan]
 *     [--tfbc-threshold 0.1] [--tfbc-margin 0.05] [--tfbc-n 300] [--nw-margin 0.02] [--nw-resamples 200]
 *
 * Simulated subjects with known p_d: every trial at depth N is right with probability p_d^N (the sim:retention
 * subject's law), drawn from a seeded PyRandom — the trial outcomes are simulated directly, not through full runs
 * (prompts, answers, grading), which would cost about a thousand times the CPU; the decisions are the product's
 * own code: fitRetention (the MLE the gate reads), profileLikelihoodCI, retentionTestCall, runAdaptiveDesign.
 * Models at p_d ∈ {t + 2m, t + m, t, t − m, t − 2m} (t the threshold, m the margin). Designs over CCB depths 5…50:
 * - grid + point: `grid` trials per depth, fail iff the MLE < t (the default gate; its fail rate at t is its
 *   flip rate: how often the same model's verdict changes between runs is 2·f·(1 − f));
 * - grid + lower: fail iff the 95% lower bound < t (the profile-likelihood bound, for CPU: the run's own BCa
 *   bootstrap bound costs 2,000 fits a run);
 * - grid + test: the one-look likelihood-ratio test (evidence: 'test');
 * - adaptive + point: the adaptive design (objective calls, matching the grid's CI width), fail iff its MLE < t;
 * - sequential: `batch` trials per depth per look, the likelihood-ratio test after each, at most `max` per depth.
 * Then the other gates with a test, the same way (their own rows):
 * - maxTfbcRate: `tfbc-n` correct answers, each with a divergent trace with probability r, at r ∈ {t − m, t, t + m,
 *   t + 2m} (t = --tfbc-threshold, m = --tfbc-margin): the point gate (fail iff the rate > t) and the test
 *   (rateTestFails, one look);
 * - notWorseThan: a baseline at p_d = --threshold and a candidate at Δ ∈ {+m, 0, −m, −2m, −3m} (m = --nw-margin),
 *   40 trials per depth each, the gate's own decision (notWorseDecision) on the paired bootstrap draws (the same
 *   instances, answered independently) and on the parametric ones (other instances), `--nw-resamples` draws a run
 *   (the product's default is 2,000; fewer for CPU). The fail rate at Δ = −m is its false-alarm rate; at −2m its
 *   power, beside the mean power its gate lines state.
 * Time is CPU seconds of this process (process.cpuUsage), not wall-clock.
 */
import { parseArgs } from 'node:util';
import { runAdaptiveDesign } from '../src/assays/adaptive/index.js';
import { pairedRetentionDraws } from '../src/leaderboard/differences.js';
import { notWorseDecision } from '../src/leaderboard/not-worse.js';
import { PyRandom } from '../src/rng/index.js';
import { sampleBinomial } from '../src/stats/binomial.js';
import type { DepthCount } from '../src/stats/depth-counts.js';
import { type RateTest, rateTestFails } from '../src/stats/rate-test.js';
import { fitRetention, profileLikelihoodCI } from '../src/stats/retention.js';
import { retentionDifferenceDraws } from '../src/stats/retention-difference.js';
import { type RetentionTest, retentionTestCall, simulateSequential } from '../src/stats/sequential.js';
import { simulatedPairTables } from '../test/support/paired-tables.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '1000' },
    'adaptive-runs': { type: 'string', default: '200' },
    threshold: { type: 'string', default: '0.9' },
    margin: { type: 'string', default: '0.02' },
    alpha: { type: 'string', default: '0.05' },
    grid: { type: 'string', default: '40' },
    batch: { type: 'string', default: '5' },
    max: { type: 'string', default: '160' },
    json: { type: 'string' },
    'tfbc-threshold': { type: 'string', default: '0.1' },
    'tfbc-margin': { type: 'string', default: '0.05' },
    'tfbc-n': { type: 'string', default: '300' },
    'nw-margin': { type: 'string', default: '0.02' },
    'nw-resamples': { type: 'string', default: '200' },
    only: { type: 'string', default: 'retention,tfbc,notWorseThan' },
  },
});
const ONLY = new Set(String(values.only).split(','));
const TFBC: RateTest = {
  threshold: Number(values['tfbc-threshold']),
  margin: Number(values['tfbc-margin']),
  alpha: Number(values.alpha),
};
const TFBC_N = Number(values['tfbc-n']);
const NW_MARGIN = Number(values['nw-margin']);
const NW_RESAMPLES = Number(values['nw-resamples']);
const RUNS = Number(values.runs);
const ADAPTIVE_RUNS = Number(values['adaptive-runs']);
const T = Number(values.threshold);
const M = Number(values.margin);
const GRID_N = Number(values.grid);
const DEPTHS = [5, 10, 15, 20, 25, 30, 35, 40, 45, 50];
const TEST: RetentionTest = { threshold: T, margin: M, alpha: Number(values.alpha) };
const SEQUENTIAL = { depths: DEPTHS, batch: Number(values.batch), maxPerCell: Number(values.max) };

interface Row {
  design: string;
  p: number;
  runs: number;
  failRate: number;
  se: number;
  meanCalls: number;
  maxCalls: number;
  cpuSeconds: number;
}

const gridCounts = (rng: PyRandom, p: number): DepthCount[] =>
  DEPTHS.map((depth) => ({ depth, correct: sampleBinomial(rng, GRID_N, p ** depth), n: GRID_N }));

type Decide = (rng: PyRandom, p: number, run: number) => Promise<{ fail: boolean; calls: number }>;

const DESIGNS: Record<string, { runs: () => number; maxCalls: number; decide: Decide }> = {
  'grid + point': {
    runs: () => RUNS,
    maxCalls: GRID_N * DEPTHS.length,
    decide: async (rng, p) => ({ fail: fitRetention(gridCounts(rng, p)).pd < T, calls: GRID_N * DEPTHS.length }),
  },
  'grid + lower': {
    runs: () => RUNS,
    maxCalls: GRID_N * DEPTHS.length,
    decide: async (rng, p) => ({ fail: profileLikelihoodCI(gridCounts(rng, p))[0] < T, calls: GRID_N * DEPTHS.length }),
  },
  'grid + test': {
    runs: () => RUNS,
    maxCalls: GRID_N * DEPTHS.length,
    decide: async (rng, p) => ({
      fail: retentionTestCall(gridCounts(rng, p), TEST, true, false).call === 'fail',
      calls: GRID_N * DEPTHS.length,
    }),
  },
  'adaptive + point': {
    runs: () => ADAPTIVE_RUNS,
    maxCalls: 4 * GRID_N * DEPTHS.length,
    decide: async (rng, p, run) => {
      const result = await runAdaptiveDesign({
        answer: async (depth) => rng.random() < p ** depth,
        minDepth: 5,
        maxDepth: 50,
        targetWidth: { matchDesign: DEPTHS.map((depth) => ({ depth, n: GRID_N })) },
        seed: run,
        maxTrials: 4 * GRID_N * DEPTHS.length,
      });
      return { fail: result.fit.pd < T, calls: result.calls };
    },
  },
  sequential: {
    runs: () => RUNS,
    maxCalls: SEQUENTIAL.maxPerCell * DEPTHS.length,
    decide: async (rng, p) => {
      const run = simulateSequential(rng, p, SEQUENTIAL, TEST);
      return { fail: run.call === 'fail', calls: run.calls };
    },
  },
};

const cpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

/** Runs one setting `n` times from a seeded stream; prints and returns its row. */
async function measure(
  design: string,
  p: number,
  n: number,
  maxCalls: number,
  seed: number,
  decide: Decide,
  extra?: (rng: PyRandom) => number,
): Promise<Row & { statedPower?: number }> {
  const rng = new PyRandom(seed);
  const start = cpuSeconds();
  let fails = 0;
  let calls = 0;
  for (let run = 0; run < n; run++) {
    const r = await decide(rng, p, run);
    if (r.fail) fails++;
    calls += r.calls;
  }
  const failRate = fails / n;
  const row: Row & { statedPower?: number } = {
    design,
    p: Number(p.toFixed(4)),
    runs: n,
    failRate,
    se: Math.sqrt((failRate * (1 - failRate)) / n),
    meanCalls: calls / n,
    maxCalls,
    cpuSeconds: cpuSeconds() - start,
  };
  if (extra) row.statedPower = extra(rng);
  console.log(
    `| ${design} | ${row.p} | ${n} | ${row.failRate.toFixed(3)} ± ${row.se.toFixed(3)} | ${row.meanCalls.toFixed(0)} | ${maxCalls} | ${row.cpuSeconds.toFixed(2)} |${row.statedPower === undefined ? '' : ` stated power ${row.statedPower.toFixed(3)} |`}`,
  );
  return row;
}

const header = (title: string, what: string) => {
  console.log(`\n${title}`);
  console.log(`| design | ${what} | runs | fail rate ± s.e. | mean calls | max calls | CPU s |`);
  console.log('|---|---|---|---|---|---|---|');
};

async function retention(rows: Row[]) {
  console.log(
    `minRetention: threshold ${T}, margin ${M}, alpha ${TEST.alpha}; grid ${GRID_N} × ${DEPTHS.length} depths; sequential batch ${SEQUENTIAL.batch}, max ${SEQUENTIAL.maxPerCell} per depth`,
  );
  header('', 'true p_d');
  const models = [T + 2 * M, T + M, T, T - M, T - 2 * M];
  for (const [design, { runs, maxCalls, decide }] of Object.entries(DESIGNS)) {
    for (const [i, p] of models.entries()) rows.push(await measure(design, p, runs(), maxCalls, 4500 + i, decide));
  }
}

/** maxTfbcRate on TFBC_N correct answers: the point gate and the test, at rates around the threshold. */
async function tfbc(rows: Row[]) {
  const t = TFBC.threshold;
  const m = TFBC.margin;
  header(`maxTfbcRate: threshold ${t}, margin ${m}, alpha ${TFBC.alpha}; ${TFBC_N} correct answers a run`, 'true rate');
  const rates = [t - m, t, t + m, t + 2 * m].filter((r) => r >= 0);
  const gates: Record<string, (x: number) => boolean> = {
    'tfbc point': (x) => x / TFBC_N > t,
    'tfbc test': (x) => rateTestFails(x, TFBC_N, TFBC),
  };
  for (const [design, fails] of Object.entries(gates)) {
    for (const [i, r] of rates.entries()) {
      rows.push(
        await measure(design, r, RUNS, TFBC_N, 4530 + i, async (rng) => ({
          fail: fails(sampleBinomial(rng, TFBC_N, r)),
          calls: TFBC_N,
        })),
      );
    }
  }
}

/** notWorseThan: the gate's decision on paired and on parametric bootstrap draws, candidates around −margin. */
async function notWorse(rows: Row[]) {
  header(
    `notWorseThan: baseline p_d ${T}, margin ${NW_MARGIN}, alpha ${TEST.alpha}; ${GRID_N} × ${DEPTHS.length} depths each side, ${NW_RESAMPLES} bootstrap draws a run; the "p_d" column is the candidate's`,
    'candidate p_d',
  );
  const deltas = [NW_MARGIN, 0, -NW_MARGIN, -2 * NW_MARGIN, -3 * NW_MARGIN];
  for (const paired of [true, false]) {
    for (const [i, delta] of deltas.entries()) {
      let stated = 0;
      const decide: Decide = async (rng, p) => {
        const { difference, draws } = paired
          ? pairedRetentionDraws(simulatedPairTables(rng, DEPTHS, GRID_N, p, T), rng, NW_RESAMPLES)
          : retentionDifferenceDraws(gridCounts(rng, T), gridCounts(rng, p), { rng, resamples: NW_RESAMPLES });
        const decision = notWorseDecision(difference, draws, NW_MARGIN, TEST.alpha);
        stated += decision.power;
        return { fail: decision.fail, calls: 2 * GRID_N * DEPTHS.length };
      };
      const design = `notWorseThan ${paired ? 'paired' : 'unpaired'}`;
      rows.push(
        await measure(design, T + delta, RUNS, 2 * GRID_N * DEPTHS.length, 4540 + i, decide, () => stated / RUNS),
      );
    }
  }
}

async function main() {
  const rows: Row[] = [];
  if (ONLY.has('retention')) await retention(rows);
  if (ONLY.has('tfbc')) await tfbc(rows);
  if (ONLY.has('notWorseThan')) await notWorse(rows);
  if (values.json) {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      values.json,
      `${JSON.stringify({ threshold: T, margin: M, test: TEST, sequential: SEQUENTIAL, tfbc: TFBC, tfbcN: TFBC_N, notWorseMargin: NW_MARGIN, notWorseResamples: NW_RESAMPLES, rows }, null, 2)}\n`,
    );
  }
}

await main();
