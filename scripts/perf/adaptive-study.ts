/**
 * Simulation study of the adaptive depth design against the 40 × 10 CCB grid (depths 5…50, 40 trials each).
 *
 *   npx tsx scripts/perf/adaptive-study.ts [--reps 200] [--json out.json]
 *
 * Per p ∈ {0.7, 0.8, 0.9, 0.95, 0.99}: `reps` grid replications of Bernoulli(p^N) outcomes give the target
 * width (the median width of the grid's 95% profile-likelihood interval, the interval the stopping rule
 * watches); `reps` adaptive replications (depths 1…50, pilot 5 depths × 4, batches of 8, no call cap below
 * 1,200) report calls, d2 tokens, coverage and width of both the BCa bootstrap (2,000) and profile intervals.
 * Then one end-to-end run per p on the real d2 task through the sim:retention subject, grid and adaptive.
 */
import { parseArgs } from 'node:util';
import { callsFractionBound, runAdaptiveDesign, runAdaptiveSweep } from '../../src/assays/adaptive/index.js';
import { fitRetentionSweep, runCell } from '../../src/assays/sweep/index.js';
import { PyRandom } from '../../src/rng/index.js';
import { bootstrapRetentionCI, type DepthCount, fitRetention, profileLikelihoodCI } from '../../src/stats/index.js';
import { createSubject } from '../../src/subjects/index.js';
import { estimateUsage } from '../../src/subjects/usage-estimate.js';
import { generateCell } from '../../src/tasks/instances.js';
import { resolveTask } from '../../src/tasks/registry.js';
import { median, summarize } from './stats-helpers.js';

const { values } = parseArgs({ options: { reps: { type: 'string', default: '200' }, json: { type: 'string' } } });
const REPS = Number(values.reps);
const PS = [0.7, 0.8, 0.9, 0.95, 0.99];
const GRID_DEPTHS = [5, 10, 15, 20, 25, 30, 35, 40, 45, 50];
const PER_CELL = 40;
const GRID_CALLS = GRID_DEPTHS.length * PER_CELL;
const GRID_DESIGN = GRID_DEPTHS.map((depth) => ({ depth, n: PER_CELL }));
const MAX_DEPTH = 50;
const d2 = resolveTask('d2');

/** Mean estimated tokens (prompt + a full-length answer, chars/4) of a d2 trial at each depth 1…MAX_DEPTH. */
const tokensAt = new Map<number, number>();
for (let depth = 1; depth <= MAX_DEPTH; depth++) {
  const instances = generateCell(d2, depth, 5);
  const usage = instances.map((i) => estimateUsage(d2.render(i), d2.canonicalResponse(i)));
  tokensAt.set(depth, usage.reduce((s, u) => s + u.promptTokens + u.completionTokens, 0) / usage.length);
}
const tokensOf = (counts: readonly DepthCount[]) => counts.reduce((s, c) => s + c.n * (tokensAt.get(c.depth) ?? 0), 0);
const gridTokens = PER_CELL * GRID_DEPTHS.reduce((s, d) => s + (tokensAt.get(d) ?? 0), 0);

const width = ([lo, hi]: [number, number]) => hi - lo;
const covers = ([lo, hi]: [number, number], p: number) => lo <= p && p <= hi;

function gridReplication(p: number, rep: number) {
  const rng = new PyRandom(`grid|${p}|${rep}`);
  const counts = GRID_DEPTHS.map((depth) => {
    let correct = 0;
    for (let i = 0; i < PER_CELL; i++) if (rng.random() < p ** depth) correct++;
    return { depth, correct, n: PER_CELL };
  });
  return {
    profile: profileLikelihoodCI(counts),
    bca: bootstrapRetentionCI(counts, { seed: rep }),
    pd: fitRetention(counts).pd,
  };
}

type Target = 'fixed' | 'match';
const TARGETS: readonly Target[] = ['fixed', 'match'];

async function adaptiveReplication(p: number, rep: number, targetWidth: number | { matchDesign: typeof GRID_DESIGN }) {
  const rng = new PyRandom(`adaptive|${p}|${rep}`);
  const result = await runAdaptiveDesign({
    answer: async (depth) => rng.random() < p ** depth,
    maxDepth: MAX_DEPTH,
    targetWidth,
    seed: rep,
    maxTrials: 3 * GRID_CALLS,
  });
  return { ...result, tokens: tokensOf(result.counts) };
}

const rows: Record<string, unknown>[] = [];
const started = performance.now();
for (const p of PS) {
  const grid = Array.from({ length: REPS }, (_, r) => gridReplication(p, r));
  const fixedWidth = median(grid.map((g) => width(g.profile)));
  for (const mode of TARGETS) {
    const adaptive = [];
    for (let r = 0; r < REPS; r++) {
      adaptive.push(await adaptiveReplication(p, r, mode === 'fixed' ? fixedWidth : { matchDesign: GRID_DESIGN }));
    }
    const calls = summarize(adaptive.map((a) => a.calls));
    rows.push({
      p,
      mode,
      targetWidth: mode === 'fixed' ? fixedWidth : median(adaptive.map((a) => a.targetWidth)),
      gridBcaWidth: median(grid.map((g) => width(g.bca))),
      gridProfileWidth: fixedWidth,
      gridCoverageBca: grid.filter((g) => covers(g.bca, p)).length / REPS,
      gridCoverageProfile: grid.filter((g) => covers(g.profile, p)).length / REPS,
      callsMean: calls.mean,
      callsMedian: calls.median,
      callsP90: calls.p90,
      callsRatio: calls.mean / GRID_CALLS,
      boundRatio: callsFractionBound(p, GRID_DESIGN, MAX_DEPTH),
      boundRatio100: callsFractionBound(p, GRID_DESIGN, 100),
      tokensRatio: summarize(adaptive.map((a) => a.tokens)).mean / gridTokens,
      capped: adaptive.filter((a) => a.stopReason !== 'width').length,
      adaptiveBcaWidth: median(adaptive.map((a) => width(a.ci95))),
      adaptiveProfileWidth: median(adaptive.map((a) => width(a.profileCi95))),
      coverageBca: adaptive.filter((a) => covers(a.ci95, p)).length / REPS,
      coverageProfile: adaptive.filter((a) => covers(a.profileCi95, p)).length / REPS,
      finalDepth: median(adaptive.map((a) => a.steps.at(-1)?.depth ?? 0)),
    });
  }
  console.error(`p=${p} done (${((performance.now() - started) / 1000).toFixed(1)} s)`);
}

const f = (x: number, d = 3) => x.toFixed(d);
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
console.log(`Adaptive vs 40 × 10 grid, ${REPS} replications per p (Bernoulli(p^N) outcomes), depths 1…${MAX_DEPTH}\n`);
console.log(
  '| p | target | target width (median) | adaptive calls mean (median, p90) | calls ratio | information bound (N ≤ 50; N ≤ 100) | d2 tokens ratio | coverage BCa / profile (adaptive) | coverage BCa / profile (grid) | median BCa width adaptive / grid | final depth (median) | capped |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows as Array<Record<string, number>>) {
  const target = (r.mode as unknown as Target) === 'fixed' ? 'grid median width' : 'match grid over the CI';
  console.log(
    `| ${r.p} | ${target} | ${f(r.targetWidth, 4)} | ${f(r.callsMean, 1)} (${f(r.callsMedian, 0)}, ${f(r.callsP90, 0)}) | ${f(r.callsRatio)} | ${f(r.boundRatio)}; ${f(r.boundRatio100)} | ${f(r.tokensRatio)} | ${pct(r.coverageBca)} / ${pct(r.coverageProfile)} | ${pct(r.gridCoverageBca)} / ${pct(r.gridCoverageProfile)} | ${f(r.adaptiveBcaWidth, 4)} / ${f(r.gridBcaWidth, 4)} | ${r.finalDepth} | ${r.capped} |`,
  );
}

// End to end: the real d2 task (instances, prompts, grading) through the sim:retention subject, one run per p.
console.log(
  '\nEnd to end on d2 through sim:retention: the grid (runCell × 10) vs runAdaptiveSweep with its default target (match the grid over the CI); one run per p; tokens are the subject-reported usage\n',
);
console.log(
  '| p | grid calls | grid p̂ [BCa] | grid tokens | adaptive calls | adaptive p̂ [BCa] | adaptive tokens | calls ratio | tokens ratio |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
const e2e: Record<string, unknown>[] = [];
for (const p of PS) {
  const subject = await createSubject(`sim:retention?p=${p}`);
  const cells = [];
  for (const level of GRID_DEPTHS) {
    cells.push(
      await runCell({ project: 'd2', task: d2, level, trials: PER_CELL }, subject, {
        concurrency: 8,
        maxMissingFraction: 0.1,
      }),
    );
  }
  const gridFit = fitRetentionSweep(cells, { project: 'd2', missing: 'paper', seed: 0 });
  const gridCi = gridFit.ci95;
  const gridPd = gridFit.pd;
  const gridTok = cells.reduce((s, c) => s + c.tokens.prompt + c.tokens.completion, 0);
  const gridCalls = cells.reduce((s, c) => s + c.calls, 0);
  const adaptive = await runAdaptiveSweep({ project: 'd2', task: d2, maxTrials: 3 * GRID_CALLS }, subject, {
    seed: 0,
    missing: 'paper',
    concurrency: 8,
    maxMissingFraction: 0.1,
    gridTrials: PER_CELL,
  });
  const result = { calls: adaptive.design.calls, fit: { pd: adaptive.fit.pd }, ci95: adaptive.fit.ci95 };
  const adaptiveTok = adaptive.cells.reduce((s, c) => s + c.tokens.prompt + c.tokens.completion, 0);
  e2e.push({
    p,
    gridCalls,
    gridPd,
    gridCi,
    gridTok,
    calls: result.calls,
    pd: result.fit.pd,
    ci95: result.ci95,
    adaptiveTok,
  });
  console.log(
    `| ${p} | ${gridCalls} | ${f(gridPd)} [${f(gridCi[0])}, ${f(gridCi[1])}] | ${gridTok} | ${result.calls} | ${f(result.fit.pd)} [${f(result.ci95[0])}, ${f(result.ci95[1])}] | ${adaptiveTok} | ${f(result.calls / gridCalls)} | ${f(adaptiveTok / gridTok)} |`,
  );
}
console.log(`\nnode ${process.version}; study took ${((performance.now() - started) / 1000).toFixed(1)} s`);
if (values.json) {
  const { writeFile } = await import('node:fs/promises');
  await writeFile(values.json, `${JSON.stringify({ reps: REPS, rows, e2e }, null, 2)}\n`);
}
