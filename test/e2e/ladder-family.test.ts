import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSccAssay } from '../../src/assays/scc/run.js';
import { resolveRunConfig } from '../../src/config/resolve.js';
import { registerTask } from '../../src/index.js';
import { buildPlan } from '../../src/plan/build.js';
import { createSubject } from '../../src/subjects/index.js';
import { wordtallyTask } from '../ladder-family/wordtally.js';
import { ROOT, runVitest } from '../support/run-vitest.js';
import { reloadModulesAfterThisFile } from '../support/shared-worker.js';

/**
 * The proof that an SCC counting ladder is a declaration: `wordtally` (count the words of a list) lives only in
 * test/ladder-family (its plugin, one spec, a consumer's vitest config). Registered from the spec, it runs the
 * counting-capacity ladder, a hard gate, the JSON / JUnit / Markdown / HTML reports and the spend plan like SCC
 * counting — and nothing under src/ names it.
 */
const CONFIG = ['--config', 'test/ladder-family/vitest.config.ts', '--configLoader', 'runner', '--no-cache'];
const env = (gates: string) => ({ CEILINGBENCH_SUBJECT: 'sim:default', CEILINGBENCH_GATES: gates });

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );

registerTask(wordtallyTask);
reloadModulesAfterThisFile();

describe('a counting ladder defined entirely in test/', () => {
  it('no file under src/ names it', () => {
    const naming = filesUnder(join(ROOT, 'src')).filter((file) => /wordtally/i.test(readFileSync(file, 'utf8')));
    expect(naming).toEqual([]);
  });

  it("the ladder asks the plugin's prompts and scores with its grade: CC brackets the declared sim capacity", async () => {
    const asked: Array<{ words: number; answer: unknown }> = [];
    const sim = await createSubject('sim:default');
    const subject = {
      ...sim,
      answer: (request: Parameters<typeof sim.answer>[0]) => {
        const [question, list = ''] = request.prompt.user.split('\n\n');
        expect(question).toBe('How many words are in this list?');
        asked.push({ words: list.split(' ').length, answer: request.instance.answer });
        return sim.answer(request);
      },
    };
    const result = await runSccAssay(subject, { seed: 7, task: 'wordtally' });
    expect(result.task).toBe('wordtally');
    // every prompt the plugin rendered holds exactly its instance's count of words, and an exact answer is it
    expect(asked.length).toBe(result.calls);
    for (const { words, answer } of asked) expect(words).toBe(answer);
    for (const trial of result.tiers.flatMap((t) => t.trials)) {
      if (trial.exact) expect(trial.parsed).toBe(trial.target);
    }
    // sim:default counts exactly up to the declared capacity 48 and short beyond it
    expect(result.cc).toBeLessThanOrEqual(48);
    expect(result.ccUpper ?? Number.POSITIVE_INFINITY).toBeGreaterThan(result.cc);
    expect(result.cc).toBeGreaterThanOrEqual(32);
  });

  it('the spend plan counts its ladder from the plugin (its rendered prompts), as a range', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cb-ladder-plan-'));
    const config = await resolveRunConfig({
      root,
      env: { CEILINGBENCH_SUBJECT: 'openai:gpt-4o-mini', CEILINGBENCH_CACHE_DIR: join(root, 'cache') },
    });
    const plan = await buildPlan({ config, env: {}, projects: ['wordtally'] });
    const [project] = plan.projects;
    expect(project).toMatchObject({ name: 'wordtally', estimated: true });
    expect(project.units.map((u) => [u.name, u.kind, u.isRange])).toEqual([
      ['wordtally · counting capacity', 'ladder', true],
    ]);
    const { promptTokens, calls } = project.units[0].amount;
    expect(calls.low).toBe(2);
    expect(promptTokens.low).toBeGreaterThan(0);
    expect(promptTokens.high ?? 0).toBeGreaterThan(promptTokens.low ?? 0);
  });

  it('runs its ladder from its one spec, passes its gate and appears in every report', () => {
    const run = runVitest(CONFIG, { ...env('{"wordtally":{"minCountingCapacity":24}}'), CEILINGBENCH_HTML: 'true' });
    expect(run.status, run.stderr + run.stdout).toBe(0);

    const report = run.report();
    expect(report.scc.map((r) => [r.task, r.project])).toEqual([['wordtally', 'wordtally']]);
    const [record] = report.scc;
    expect(record.cc).toBeGreaterThanOrEqual(24);
    expect(record.cc).toBeLessThanOrEqual(48);
    expect(report.gates).toEqual([
      expect.objectContaining({ project: 'wordtally', gate: 'minCountingCapacity', mode: 'hard', passed: true }),
    ]);

    const junit = run.junit();
    expect(junit).toMatch(/<testsuite name="wordtally"[^>]* tests="2" failures="0"/);
    expect(junit).toContain('name="wordtally · counting capacity"');
    expect(junit).toContain('<property name="counting_capacity" value="');

    const summary = readFileSync(join(run.outDir, 'summary.md'), 'utf8');
    expect(summary).toMatch(/\| wordtally\.minCountingCapacity \(wordtally\) \| hard \| pass \|/);
    expect(summary).toContain('wordtally');

    const html = readFileSync(join(run.outDir, 'index.html'), 'utf8');
    expect(html).toContain('wordtally');
  });

  it('a hard gate above its capacity fails the run and names the family', () => {
    const run = runVitest(CONFIG, env('{"wordtally":{"minCountingCapacity":200}}'));
    expect(run.status).toBe(1);
    expect(run.stdout + run.stderr).toMatch(/gate wordtally\.minCountingCapacity FAILED \(hard\)/);
    expect(run.report().summary.hardGatesFailed).toBe(1);
  });
});
