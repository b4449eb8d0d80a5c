import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCell } from '../../src/assays/sweep/run-cell.js';
import { resolveRunConfig } from '../../src/config/resolve.js';
import { buildPlan } from '../../src/plan/build.js';
import { createSubject } from '../../src/subjects/index.js';
import { resolveTask } from '../../src/tasks/registry.js';

/**
 * A rehearsal on the simulator spends what `plan` says a real run will: a simulated d2 run's recorded tokens, cell
 * by cell, against the plan of the same run. The prompt tokens are the plan's exactly (the same prompts, the same
 * tokenizer); the output tokens lie within the plan's range at every depth, near its expected value (the paper's
 * per-depth mean lengths).
 */
describe('a rehearsal on sim: costs what plan says', () => {
  it('a simulated d2 run records, at every depth, the plan’s prompt tokens and output tokens within its range', async () => {
    const trials = 12;
    const root = mkdtempSync(join(tmpdir(), 'cb-rehearsal-'));
    const env = { CEILINGBENCH_SUBJECT: 'sim:default', CEILINGBENCH_TRIALS: String(trials) };
    const config = await resolveRunConfig({ root, env: { CEILINGBENCH_CACHE_DIR: join(root, 'cache'), ...env } });
    const plan = await buildPlan({ config, env: {}, projects: ['d2'] });
    const d2 = resolveTask('d2');
    const subject = await createSubject(config.subject, { seed: config.seed });
    const ratios: string[] = [];
    for (const cell of plan.projects[0].units[0].cells) {
      const result = await runCell({ project: 'd2', task: d2, level: cell.level, trials }, subject, {
        concurrency: 4,
        maxMissingFraction: 0.2,
      });
      const { promptTokens, outputTokens } = cell.amount;
      expect(result.tokens.prompt, `N=${cell.level} prompt`).toBe(promptTokens.expected);
      expect(result.tokens.completion, `N=${cell.level} output ≥ low`).toBeGreaterThanOrEqual(outputTokens.low);
      expect(result.tokens.completion, `N=${cell.level} output ≤ high`).toBeLessThanOrEqual(outputTokens.high);
      const ratio = result.tokens.completion / (outputTokens.expected ?? 1);
      expect(ratio, `N=${cell.level} output ÷ expected`).toBeGreaterThan(0.85);
      expect(ratio, `N=${cell.level} output ÷ expected`).toBeLessThan(1.15);
      ratios.push(`N=${cell.level}: ${ratio.toFixed(3)}`);
    }
    expect(ratios).toHaveLength(d2.levels.values.length);
  });
});
