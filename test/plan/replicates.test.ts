import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type RunConfig, resolveRunConfig } from '../../src/config/resolve.js';
import { buildPlan } from '../../src/plan/build.js';

// Issue 40, Deliver 5: `ceilingbench plan` warns before a run whose replicates cannot differ — the fixed-instance
// puzzle levels (hanoi, checkers, river, jug) asked at temperature 0, where every trial of a level is the same request.

async function configFor(env: Record<string, string>): Promise<RunConfig> {
  const root = mkdtempSync(join(tmpdir(), 'cb-plan-replicates-'));
  return resolveRunConfig({ root, env: { CEILINGBENCH_CACHE_DIR: join(root, 'cache'), ...env } });
}

const warning = (notes: readonly string[]) => notes.find((n) => n.includes('temperature 0'));

describe('plan: replicates that cannot differ', () => {
  it('warns for the puzzles at temperature 0 (the default), naming the fixed-instance tasks and the fix', async () => {
    const config = await configFor({ CEILINGBENCH_SUBJECT: 'openai:local-model', CEILINGBENCH_TRIALS: '40' });
    const plan = await buildPlan({ config, env: {}, projects: ['puzzles'] });
    const note = warning(plan.notes);
    expect(note).toBeDefined();
    for (const task of ['hanoi', 'checkers', 'river', 'jug']) expect(note).toContain(task);
    expect(note).not.toMatch(/sudoku|rubik/);
    expect(note).toMatch(/1 sample, not its trial count/);
    expect(note).toMatch(/CEILINGBENCH_TEMPERATURE/);
  });

  it('says nothing at another temperature, for CCB (distinct instances), for one trial, or for the simulator', async () => {
    const hot = await configFor({ CEILINGBENCH_SUBJECT: 'openai:local-model', CEILINGBENCH_TRIALS: '40' });
    const env = { CEILINGBENCH_TEMPERATURE: '0.7' };
    expect(warning((await buildPlan({ config: hot, env, projects: ['puzzles'] })).notes)).toBeUndefined();
    expect(warning((await buildPlan({ config: hot, env: {}, projects: ['d2'] })).notes)).toBeUndefined();
    const one = await configFor({ CEILINGBENCH_SUBJECT: 'openai:local-model', CEILINGBENCH_TRIALS: '1' });
    expect(warning((await buildPlan({ config: one, env: {}, projects: ['puzzles'] })).notes)).toBeUndefined();
    const sim = await configFor({ CEILINGBENCH_SUBJECT: 'sim:default', CEILINGBENCH_TRIALS: '40' });
    expect(warning((await buildPlan({ config: sim, env: {}, projects: ['puzzles'] })).notes)).toBeUndefined();
  });
});
