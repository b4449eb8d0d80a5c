/**
 * Calibration of the retention gate's designs (issue 45): how often each fails a model that meets the threshold
 * (the false-alarm rate), how often it fails one a margin short (the power), and the calls it spends.
 *
 *   nice npx tsx bench/gate-calibration.ts [--runs 1000] [--adaptive-runs 200] [--threshold 0.9] [--margin 0.02]
 *     [--grid 40] [--batch 5] [--max 160] [--alpha 0.05] [--json out.json]
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
 * Time is CPU seconds of this process (process.cpuUsage), not wall-clock.
 */
import { parseArgs } from 'node:util';
import { runAdaptiveDesign } from '../src/assays/adaptive/index.js';
import { PyRandom } from '../src/rng/index.js';
import { sampleBinomial } from '../src/stats/binomial.js';
import type { DepthCount } from '../src/stats/depth-counts.js';
import { fitRetention, profileLikelihoodCI } from '../src/stats/retention.js';
import { type RetentionTest, retentionTestCall, simulateSequential } from '../src/stats/sequential.js';

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
  },
});
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

async function main() {
  const models = [T + 2 * M, T + M, T, T - M, T - 2 * M];
  const rows: Row[] = [];
  for (const [design, { runs, maxCalls, decide }] of Object.entries(DESIGNS)) {
    for (const [i, p] of models.entries()) {
      const rng = new PyRandom(4500 + i);
      const n = runs();
      const start = cpuSeconds();
      let fails = 0;
      let calls = 0;
      for (let run = 0; run < n; run++) {
        const r = await decide(rng, p, run);
        if (r.fail) fails++;
        calls += r.calls;
      }
      const failRate = fails / n;
      rows.push({
        design,
        p: Number(p.toFixed(4)),
        runs: n,
        failRate,
        se: Math.sqrt((failRate * (1 - failRate)) / n),
        meanCalls: calls / n,
        maxCalls,
        cpuSeconds: cpuSeconds() - start,
      });
      const last = rows[rows.length - 1];
      console.log(
        `| ${design} | ${last.p} | ${n} | ${last.failRate.toFixed(3)} ± ${last.se.toFixed(3)} | ${last.meanCalls.toFixed(0)} | ${maxCalls} | ${last.cpuSeconds.toFixed(2)} |`,
      );
    }
  }
  if (values.json) {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      values.json,
      `${JSON.stringify({ threshold: T, margin: M, test: TEST, sequential: SEQUENTIAL, rows }, null, 2)}\n`,
    );
  }
}

console.log(
  `threshold ${T}, margin ${M}, alpha ${TEST.alpha}; grid ${GRID_N} × ${DEPTHS.length} depths; sequential batch ${SEQUENTIAL.batch}, max ${SEQUENTIAL.maxPerCell} per depth`,
);
console.log('| design | true p_d | runs | fail rate ± s.e. | mean calls | max calls | CPU s |');
console.log('|---|---|---|---|---|---|---|');
await main();
