/**
 * The adaptive depth design against the 40 × 10 CCB grid (depths 5…50, 40 trials each), in priced tokens:
 * `npm run bench:perf -- --only adaptive`, or on its own
 *
 *   npx tsx bench/adaptive-suite.ts [--reps 200] [--sim-reps 200] [--coverage-reps 1000] [--json out.json]
 *
 * Per p ∈ {0.7, 0.8, 0.9, 0.95, 0.99}, `reps` seeded replications of Bernoulli(p^N) outcomes (the sim:retention
 * subject's law: every step right with probability p) of
 * - the grid: its median 95% profile-interval width is the target width ("the grid's CI width");
 * - the call-optimal design as it was before cost (objective 'calls', depths 1…50, pilot 1, 3, 7, 19, 50 × 4);
 * - the cost-aware design (objective 'cost', depths 5…50, pilot at depth 5), once per task: its cost model is the
 *   task's own length model (expected output tokens per depth; output-token pricing, no price table);
 * - the bound with p known: no design over depths 5…50 reaches the grid's information for less (asymptotically).
 * Cost of a replication = Σ over its calls of the task's expected output tokens at the call's depth, ÷ the grid's.
 * Coverage of the reported interval (BCa parametric bootstrap, 2,000 resamples, as the grid's estimate) and of
 * the profile interval the stop rule watches. Then the default stop rule (as narrow as the grid anywhere in the
 * current interval), a priced run (prompt + output tokens), and `sim-reps` replications of the cost-aware design
 * through the real D1 task and the sim:retention subject (instances, prompts, sim answers, grader), and the
 * coverage of the cost-aware design on D1 at `coverage-reps` replications (a Monte Carlo error of 0.7 points
 * instead of 1.5).
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import {
  type AdaptiveDesignResult,
  type AdaptiveObjective,
  costFractionBound,
  createInstanceCells,
  designCost,
  runAdaptiveDesign,
  type TrialCost,
  taskAnswerer,
  trialCostModel,
} from '../src/assays/adaptive/index.js';
import { PyRandom } from '../src/rng/index.js';
import { countTokens } from '../src/spend/tokenizer.js';
import { bootstrapRetentionCI, profileLikelihoodCI } from '../src/stats/index.js';
import { createSubject } from '../src/subjects/index.js';
import { countPromptTokens } from '../src/subjects/openai/prompt-tokens.js';
import { resolveTask } from '../src/tasks/registry.js';
import type { AnyTaskPlugin } from '../src/tasks/task.js';

const { values } = parseArgs({
  options: {
    reps: { type: 'string', default: '200' },
    'sim-reps': { type: 'string', default: '200' },
    'coverage-reps': { type: 'string', default: '1000' },
    json: { type: 'string' },
  },
});
const REPS = Number(values.reps);
const SIM_REPS = Number(values['sim-reps']);
const COVERAGE_REPS = Number(values['coverage-reps']);
const PS = [0.7, 0.8, 0.9, 0.95, 0.99] as const;
/** Issue 19's acceptance for the cost-aware design on D1 (priced cost ÷ grid at the grid's CI width). */
const D1_TARGET: Record<(typeof PS)[number], number> = { 0.7: 0.07, 0.8: 0.1, 0.9: 0.28, 0.95: 0.61, 0.99: 1.0 };
const MIN_COVERAGE = 0.93;
const GRID_DEPTHS = [5, 10, 15, 20, 25, 30, 35, 40, 45, 50];
const PER_CELL = 40;
const GRID = GRID_DEPTHS.map((depth) => ({ depth, n: PER_CELL }));
const [MIN_DEPTH, MAX_DEPTH] = [5, 50];
/** Caps far above what the designs need (a capped replication is counted in the tables): calls for the call-optimal design, cost for the cost-aware one. */
const MAX_TRIALS = 3 * GRID.length * PER_CELL;
const MAX_COST_RATIO = 3;
const TASKS = ['d1', 'd2', 'd3'].map((id) => resolveTask(id));
const tokensOf = new Map<string, TrialCost>(TASKS.map((t) => [t.id, trialCostModel(t, { price: null })]));
/** An illustrative price table entry (USD per million tokens) and the model whose tokenizer counts the prompts. */
const PRICE = { input: 0.15, output: 0.6 };
const PRICED_MODEL = 'gpt-4o-mini';

type Interval = [number, number];
const width = ([lo, hi]: Interval) => hi - lo;
const covers = ([lo, hi]: Interval, p: number) => lo <= p && p <= hi;
const median = (xs: readonly number[]) => quantile(xs, 0.5);
function quantile(xs: readonly number[], q: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  return sorted[lo] + (h - lo) * ((sorted[Math.min(lo + 1, sorted.length - 1)] ?? sorted[lo]) - sorted[lo]);
}
const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

interface Replication {
  /** Stopped by a cap, not by the width. */
  capped: boolean;
  /** Calls per depth, missing answers included (there are none here). */
  calls: Map<number, number>;
  bca: Interval;
  profile: Interval;
  finalDepth: number;
}

function gridReplication(p: number, rep: number): Replication {
  const rng = new PyRandom(`grid|${p}|${rep}`);
  const counts = GRID_DEPTHS.map((depth) => {
    let correct = 0;
    for (let i = 0; i < PER_CELL; i++) if (rng.random() < p ** depth) correct++;
    return { depth, correct, n: PER_CELL };
  });
  return {
    capped: false,
    calls: new Map(GRID.map(({ depth, n }) => [depth, n])),
    bca: bootstrapRetentionCI(counts, { seed: rep }),
    profile: profileLikelihoodCI(counts),
    finalDepth: MAX_DEPTH,
  };
}

const callsPerDepth = (result: AdaptiveDesignResult): Map<number, number> => {
  const calls = new Map<number, number>();
  for (const step of result.steps) calls.set(step.depth, (calls.get(step.depth) ?? 0) + step.trials);
  return calls;
};

const summary = (result: AdaptiveDesignResult, capped = result.stopReason !== 'width'): Replication => ({
  capped,
  calls: callsPerDepth(result),
  bca: result.ci95,
  profile: result.profileCi95,
  finalDepth: result.steps.at(-1)?.depth ?? 0,
});

type Target = number | { matchDesign: typeof GRID };

/** The design as it was before cost entered: calls, depths 1…50, the geometric pilot. */
async function callsReplication(p: number, rep: number, targetWidth: Target): Promise<Replication> {
  const rng = new PyRandom(`adaptive|${p}|${rep}`);
  const result = await runAdaptiveDesign({
    answer: async (depth) => rng.random() < p ** depth,
    maxDepth: MAX_DEPTH,
    targetWidth,
    seed: rep,
    maxTrials: MAX_TRIALS,
  });
  return summary(result);
}

async function costReplication(p: number, rep: number, targetWidth: Target, cost: TrialCost): Promise<Replication> {
  const rng = new PyRandom(`adaptive|${p}|${rep}`);
  const objective: AdaptiveObjective = { kind: 'cost', cost };
  const result = await runAdaptiveDesign({
    answer: async (depth) => rng.random() < p ** depth,
    minDepth: MIN_DEPTH,
    maxDepth: MAX_DEPTH,
    targetWidth,
    seed: rep,
    maxTrials: Number.MAX_SAFE_INTEGER,
    maxCost: MAX_COST_RATIO * designCost(GRID, cost),
    objective,
  });
  return summary(result, result.stopReason !== 'width');
}

/** The cost-aware design on the real task through sim:retention (seed = replication), as runAdaptiveSweep asks. */
async function simReplication(
  task: AnyTaskPlugin,
  p: number,
  rep: number,
  targetWidth: number,
  cells = createInstanceCells(),
) {
  const subject = await createSubject(`sim:retention?p=${p}&seed=${rep}`);
  const { answer } = taskAnswerer(task, subject, { cells });
  const result = await runAdaptiveDesign({
    answer,
    minDepth: MIN_DEPTH,
    maxDepth: MAX_DEPTH,
    targetWidth,
    seed: rep,
    maxTrials: Number.MAX_SAFE_INTEGER,
    maxCost: MAX_COST_RATIO * designCost(GRID, tokensOf.get(task.id) as TrialCost),
    objective: { kind: 'cost', cost: tokensOf.get(task.id) as TrialCost },
    concurrency: 8,
  });
  return summary(result);
}

const costOf = (rep: Replication, cost: TrialCost) => {
  let total = 0;
  for (const [depth, n] of rep.calls) total += n * cost(depth);
  return total;
};

interface Measured {
  costRatio: number;
  costRatioP90: number;
  coverageBca: number;
  coverageProfile: number;
  medianBcaWidth: number;
  finalDepth: number;
  capped: number;
}

function measure(reps: readonly Replication[], p: number, cost: TrialCost): Measured {
  const grid = designCost(GRID, cost);
  const ratios = reps.map((r) => costOf(r, cost) / grid);
  return {
    costRatio: mean(ratios),
    costRatioP90: quantile(ratios, 0.9),
    coverageBca: reps.filter((r) => covers(r.bca, p)).length / reps.length,
    coverageProfile: reps.filter((r) => covers(r.profile, p)).length / reps.length,
    medianBcaWidth: median(reps.map((r) => width(r.bca))),
    finalDepth: median(reps.map((r) => r.finalDepth)),
    capped: reps.filter((r) => r.capped).length,
  };
}

const f = (x: number, d = 3) => x.toFixed(d);
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const cov = (m: Measured) => {
  const flag = m.coverageBca < MIN_COVERAGE || m.coverageProfile < MIN_COVERAGE ? ' ⚠' : '';
  const capped = m.capped > 0 ? ` (${m.capped} capped)` : '';
  return `${pct(m.coverageBca)} / ${pct(m.coverageProfile)}${flag}${capped}`;
};
const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;

const [load1] = os.loadavg();
console.log(`load average (1 min) at the start of this part: ${load1.toFixed(2)}`);
const rows: Record<string, unknown>[] = [];
const byTask = new Map<string, string[]>(TASKS.map((t) => [t.id, []]));
const matchRows = new Map<string, string[]>(TASKS.map((t) => [t.id, []]));
const pricedRows: string[] = [];
const d1 = TASKS[0];
const d1Priced = trialCostModel(d1, {
  price: PRICE,
  tokens: {
    prompt: (prompt) => countPromptTokens(prompt, PRICED_MODEL),
    text: (text) => countTokens(text, PRICED_MODEL),
  },
});
const widths = new Map<number, number>();

for (const p of PS) {
  const grid = Array.from({ length: REPS }, (_, r) => gridReplication(p, r));
  const targetWidth = median(grid.map((g) => width(g.profile)));
  widths.set(p, targetWidth);
  const calls: Replication[] = [];
  const callsMatch: Replication[] = [];
  for (let r = 0; r < REPS; r++) {
    calls.push(await callsReplication(p, r, targetWidth));
    callsMatch.push(await callsReplication(p, r, { matchDesign: GRID }));
  }
  for (const task of TASKS) {
    const tokens = tokensOf.get(task.id) as TrialCost;
    const costAware: Replication[] = [];
    const costMatch: Replication[] = [];
    for (let r = 0; r < REPS; r++) {
      costAware.push(await costReplication(p, r, targetWidth, tokens));
      costMatch.push(await costReplication(p, r, { matchDesign: GRID }, tokens));
    }
    const g = measure(grid, p, tokens);
    const c = measure(calls, p, tokens);
    const a = measure(costAware, p, tokens);
    const bound = costFractionBound(p, GRID, tokens, MAX_DEPTH, MIN_DEPTH);
    const target = task.id === 'd1' ? D1_TARGET[p] : null;
    const verdict =
      target === null
        ? '—'
        : `≤ ${f(target, 2)}: ${a.costRatio <= target && a.coverageBca >= MIN_COVERAGE ? 'met' : '**missed**'}`;
    byTask
      .get(task.id)
      ?.push(
        `| ${p} | ${f(targetWidth, 4)} | ${f(g.medianBcaWidth, 4)} · ${cov(g)} | ${f(c.costRatio)} · ${f(c.medianBcaWidth, 4)} · ${cov(c)} | **${f(a.costRatio)}** (p90 ${f(a.costRatioP90)}) · ${f(a.medianBcaWidth, 4)} · ${cov(a)} · ${a.finalDepth} | ${f(bound)} | ${verdict} |`,
      );
    const cm = measure(callsMatch, p, tokens);
    const am = measure(costMatch, p, tokens);
    matchRows
      .get(task.id)
      ?.push(
        `| ${p} | ${f(cm.costRatio)} · ${f(cm.medianBcaWidth, 4)} · ${cov(cm)} | **${f(am.costRatio)}** · ${f(am.medianBcaWidth, 4)} · ${cov(am)} · ${am.finalDepth} | ${f(bound)} |`,
      );
    rows.push({ task: task.id, p, targetWidth, grid: g, calls: c, costAware: a, bound, callsMatch: cm, costMatch: am });
    if (task.id === 'd1') {
      const priced: Replication[] = [];
      for (let r = 0; r < REPS; r++) priced.push(await costReplication(p, r, targetWidth, d1Priced));
      const pr = measure(priced, p, d1Priced);
      const callsPriced = measure(calls, p, d1Priced);
      const tokensDesignPriced = measure(costAware, p, d1Priced);
      const pricedBound = costFractionBound(p, GRID, d1Priced, MAX_DEPTH, MIN_DEPTH);
      pricedRows.push(
        `| ${p} | ${f(callsPriced.costRatio)} | ${f(tokensDesignPriced.costRatio)} | **${f(pr.costRatio)}** · ${cov(pr)} · ${pr.finalDepth} | ${f(pricedBound)} |`,
      );
      rows.push({ task: 'd1-priced', p, priced: pr, callsPriced, tokensDesignPriced, bound: pricedBound });
    }
  }
  console.error(`adaptive-suite: p=${p} done (${elapsed()})`);
}

console.log(
  `\n${REPS} replications per p of Bernoulli(p^N) outcomes (the sim:retention law). Target width: the grid's median 95% profile-interval width. Cost: Σ expected output tokens of the task's length model over the calls made, ÷ the grid's (output-token pricing). Each cell reads ratio · median BCa width · coverage BCa / profile; cost-aware adds its median final depth. ⚠: a coverage below ${pct(MIN_COVERAGE)}.`,
);
const HEADER =
  '| p | target width | grid: BCa width · coverage | call-optimal (depths 1…50): cost ÷ grid · width · coverage | cost-aware (depths 5…50): cost ÷ grid (p90) · width · coverage · depth | bound, p known (5…50) | acceptance |\n|---|---|---|---|---|---|---|';
for (const task of TASKS) {
  console.log(
    `\n### ${task.id.toUpperCase()} — ${task.title}; grid = ${f(designCost(GRID, tokensOf.get(task.id) as TrialCost), 0)} output tokens\n`,
  );
  console.log(HEADER);
  for (const line of byTask.get(task.id) ?? []) console.log(line);
}

console.log(
  '\n### The default stop rule (`--design adaptive` without a width): as narrow as the grid would be anywhere in the current interval\n',
);
for (const task of TASKS) {
  console.log(`\n${task.id.toUpperCase()}\n`);
  console.log(
    '| p | call-optimal: cost ÷ grid · width · coverage | cost-aware: cost ÷ grid · width · coverage · depth | bound |',
  );
  console.log('|---|---|---|---|');
  for (const line of matchRows.get(task.id) ?? []) console.log(line);
}

console.log(
  `\n### D1 priced: input $${PRICE.input}/M, output $${PRICE.output}/M tokens, prompt tokens of the rendered prompts (mean of the cell's first 4) in ${PRICED_MODEL}'s encoding with the chat framing, as describeAdaptive counts them\n`,
);
console.log(
  '| p | call-optimal: priced cost ÷ grid | cost-aware on output tokens alone: priced ÷ grid | cost-aware on the price: priced ÷ grid · coverage · depth | bound |',
);
console.log('|---|---|---|---|---|');
for (const line of pricedRows) console.log(line);

if (COVERAGE_REPS > 0) {
  console.log(
    `\n### Coverage of the cost-aware design on D1 at ${COVERAGE_REPS} replications (the first ${REPS} are the table's; Monte Carlo standard error ≈ ${(100 * Math.sqrt((0.95 * 0.05) / COVERAGE_REPS)).toFixed(1)} points, ≈ ${(100 * Math.sqrt((0.95 * 0.05) / REPS)).toFixed(1)} at ${REPS})\n`,
  );
  console.log('| p | coverage BCa (reported) | coverage profile | BCa misses above / below p | cost ÷ grid |');
  console.log('|---|---|---|---|---|');
  const tokens = tokensOf.get('d1') as TrialCost;
  for (const p of PS) {
    const reps: Replication[] = [];
    for (let r = 0; r < COVERAGE_REPS; r++) reps.push(await costReplication(p, r, widths.get(p) as number, tokens));
    const m = measure(reps, p, tokens);
    const above = reps.filter((r) => r.bca[0] > p).length;
    const below = reps.filter((r) => r.bca[1] < p).length;
    console.log(
      `| ${p} | ${pct(m.coverageBca)} | ${pct(m.coverageProfile)} | ${above} / ${below} | ${f(m.costRatio)} |`,
    );
    rows.push({ task: 'd1-coverage', p, reps: COVERAGE_REPS, measured: m, above, below });
    console.error(`adaptive-suite: coverage p=${p} done (${elapsed()})`);
  }
}

if (SIM_REPS > 0) {
  console.log(
    `\n### Cost-aware on the real D1 task through sim:retention (${SIM_REPS} replications per p, subject seed = replication; target width as above)\n`,
  );
  console.log('| p | cost ÷ grid (p90) | median BCa width | coverage BCa / profile | final depth | acceptance |');
  console.log('|---|---|---|---|---|---|');
  const tokens = tokensOf.get('d1') as TrialCost;
  for (const p of PS) {
    const cells = createInstanceCells();
    const reps: Replication[] = [];
    for (let r = 0; r < SIM_REPS; r++) reps.push(await simReplication(d1, p, r, widths.get(p) as number, cells));
    const m = measure(reps, p, tokens);
    const ok = m.costRatio <= D1_TARGET[p] && m.coverageBca >= MIN_COVERAGE;
    console.log(
      `| ${p} | **${f(m.costRatio)}** (${f(m.costRatioP90)}) | ${f(m.medianBcaWidth, 4)} | ${cov(m)} | ${m.finalDepth} | ≤ ${f(D1_TARGET[p], 2)}: ${ok ? 'met' : '**missed**'} |`,
    );
    rows.push({ task: 'd1-sim', p, sim: m });
    console.error(`adaptive-suite: sim p=${p} done (${elapsed()})`);
  }
}
console.log(`\nnode ${process.version}; the suite took ${elapsed()}.`);
if (values.json) {
  const { writeFile } = await import('node:fs/promises');
  await writeFile(values.json, `${JSON.stringify({ reps: REPS, simReps: SIM_REPS, rows }, null, 2)}\n`);
}
