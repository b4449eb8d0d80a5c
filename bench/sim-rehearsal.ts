/**
 * A rehearsal on `sim:` costs what `plan` says (issue 43, item 4): a simulated d2 run's recorded tokens, depth by
 * depth, against `ceilingbench plan` of the same run (the same configuration, subject `sim:default`). Printed as the
 * markdown table of BENCHMARKS.md; test/plan/sim-rehearsal.test.ts asserts the same at 12 trials.
 *
 *   nice npx tsx bench/sim-rehearsal.ts [--trials 40]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runCell } from '../src/assays/sweep/run-cell.js';
import { resolveRunConfig } from '../src/config/resolve.js';
import { buildPlan } from '../src/plan/build.js';
import { createSubject } from '../src/subjects/index.js';
import { resolveTask } from '../src/tasks/registry.js';

const { values } = parseArgs({ options: { trials: { type: 'string', default: '40' } } });
const trials = Number(values.trials);
const root = mkdtempSync(join(tmpdir(), 'cb-rehearsal-'));
const int = (n: number) => Math.round(n).toLocaleString('en-US');
try {
  const env = { CEILINGBENCH_SUBJECT: 'sim:default', CEILINGBENCH_TRIALS: String(trials) };
  const config = await resolveRunConfig({ root, env: { CEILINGBENCH_CACHE_DIR: join(root, 'cache'), ...env } });
  const plan = await buildPlan({ config, env: {}, projects: ['d2'] });
  const d2 = resolveTask('d2');
  const subject = await createSubject(config.subject, { seed: config.seed });
  console.log(`sim:default, d2, ${trials} trials per depth, against \`ceilingbench plan\` of the same run\n`);
  console.log(
    "| depth | prompt tokens, recorded / plan | output tokens, recorded / plan expected | plan's output range | within range |",
  );
  console.log('|---|---|---|---|---|');
  for (const cell of plan.projects[0].units[0].cells) {
    const result = await runCell({ project: 'd2', task: d2, level: cell.level, trials }, subject, {
      concurrency: 4,
      maxMissingFraction: 0.2,
    });
    const { promptTokens, outputTokens } = cell.amount;
    const expected = outputTokens.expected ?? Number.NaN;
    const within = result.tokens.completion >= outputTokens.low && result.tokens.completion <= outputTokens.high;
    const promptWithin = result.tokens.prompt >= promptTokens.low && result.tokens.prompt <= promptTokens.high;
    console.log(
      `| N=${cell.level} | ${int(result.tokens.prompt)} / ${int(promptTokens.expected ?? Number.NaN)} = **${(result.tokens.prompt / (promptTokens.expected ?? 1)).toFixed(3)}** | ${int(result.tokens.completion)} / ${int(expected)} = **${(result.tokens.completion / expected).toFixed(3)}** | ${int(outputTokens.low)}–${int(outputTokens.high)} | ${within && promptWithin ? 'yes' : 'NO'} |`,
    );
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
