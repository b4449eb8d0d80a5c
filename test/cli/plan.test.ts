import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { planSchema } from '../../src/schema/plan.js';
import { rateTrials, retentionTrialsPerCell, twoRateTrials } from '../../src/stats/sample-size.js';
import { CLI_BIN, spawnBench } from '../reliability/support/bench-run.js';
import { type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';
import { runCeilingbenchHere } from '../support/run-vitest.js';

/**
 * `ceilingbench plan` as a user runs it: a repository with a price table in ceilingbench.config.ts, no API key,
 * and OPENAI_BASE_URL pointing at a loopback server that must see no request at all.
 */
const CONFIG = `// a TypeScript config, loaded without Vitest
type Price = { input: number; cachedInput?: number; output: number };
const prices: Record<string, Price> = { 'gpt-4o-mini': { input: 0.15, cachedInput: 0.075, output: 0.6 } };
export default { prices };
`;

let server: LoopbackServer;
let root: string;

beforeAll(async () => {
  server = await startLoopbackServer({ answer: () => ({ text: 'should never be asked' }) });
  root = mkdtempSync(join(tmpdir(), 'cb-plan-cli-'));
  writeFileSync(join(root, 'ceilingbench.config.ts'), CONFIG);
});
afterAll(() => server.close());

/** The environment a `ceilingbench` command gets here: the loopback endpoint, the repository's cache, then `env`. */
const commandEnv = (env: Record<string, string>) => ({
  OPENAI_BASE_URL: server.baseURL,
  CEILINGBENCH_CACHE_DIR: join(root, 'cache'),
  ...env,
});

/**
 * `ceilingbench <args>` in a child process, as a user runs it. spawnBench passes no OPENAI_* or CEILINGBENCH_*
 * variable of this process: there is no API key.
 */
async function spawned(args: string[], env: Record<string, string> = {}) {
  const bench = spawnBench([CLI_BIN, ...args], commandEnv(env));
  const { code } = await bench.done;
  return { code, stdout: bench.stdout(), stderr: bench.stderr() };
}

/**
 * The same command run in this process (the CLI's runCli, the program the binary runs), under the environment
 * a child gets: no OPENAI_* or CEILINGBENCH_* variable of this process, CI and a child's defaults, then `env`.
 * `plan` builds no subject and starts no Vitest, so only its output and exit code matter; a child costs about a
 * CPU second of module loading each, and the first test keeps the whole route (binary, dist/, process env).
 */
async function cli(args: string[], env: Record<string, string> = {}) {
  // as spawnBench: none of this process's OPENAI_* or CEILINGBENCH_* (runCeilingbenchHere unstubs them afterwards)
  for (const key of Object.keys(process.env)) {
    if (key.startsWith('CEILINGBENCH_') || key.startsWith('OPENAI_')) vi.stubEnv(key, undefined);
  }
  const { status: code, stdout, stderr } = await runCeilingbenchHere(args, commandEnv(env));
  return { code, stdout, stderr };
}

describe('ceilingbench plan', () => {
  it('prints calls, tokens and cost per project for d1,d2,d3 with no key and no request', async () => {
    const { code, stdout, stderr } = await spawned([
      'plan',
      '--root',
      root,
      '--project',
      'd1,d2,d3',
      '--subject',
      'openai:gpt-4o-mini',
    ]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/ceilingbench plan · openai:gpt-4o-mini · 40 trials per cell/);
    expect(stdout).toMatch(/input \$0\.15, cached input \$0\.075, output \$0\.6/);
    const row = (name: string) => stdout.split('\n').find((line) => line.startsWith(`${name} `)) ?? '';
    expect(row('d1')).toMatch(/^d1\s+400\s+0\s+[\d,]+\s+[\d,]+\s+\$[\d.]+ \[\$[\d.]+–\$[\d.]+\]$/);
    expect(row('d2')).toMatch(/^d2\s+400\s+0\s/);
    expect(row('d3')).toMatch(/^d3\s+600\s+0\s/); // the grid and the 5-variant ablation at N = 15
    expect(row('total')).toMatch(/^total\s+1,400\s+0\s+[\d,]+\s+[\d,]+\s+\$/);
    expect(server.log).toHaveLength(0);
  });

  it('--json prints the schema’d plan, priced', async () => {
    const { code, stdout } = await cli([
      'plan',
      '--root',
      root,
      '--project',
      'd1',
      '--subject',
      'openai:gpt-4o-mini',
      '--trials',
      '2',
      '--json',
    ]);
    expect(code).toBe(0);
    const plan = planSchema.parse(JSON.parse(stdout));
    expect(plan.projects.map((p) => p.name)).toEqual(['d1']);
    expect(plan.price).toEqual({ input: 0.15, cachedInput: 0.075, output: 0.6 });
    expect(plan.totals.amount.calls).toEqual({ low: 20, expected: 20, high: 20 });
    expect(plan.totals.amount.costUsd?.expected).toBeGreaterThan(0);
    expect(server.log).toHaveLength(0);
  });

  it('without a price: tokens only, "no price", never a dollar figure; the own spec folder is "not estimated"', async () => {
    const bare = mkdtempSync(join(tmpdir(), 'cb-plan-bare-'));
    mkdirSync(join(bare, 'benchmarks'));
    const { code, stdout } = await cli([
      'plan',
      '--root',
      bare,
      '--project',
      'd1,benchmarks',
      '--subject',
      'openai:gpt-4o',
      '--trials',
      '1',
    ]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^d1\s+10\s+0\s+[\d,]+\s+[\d,]+\s+no price$/m);
    expect(stdout).toMatch(/^benchmarks\s+not estimated$/m);
    expect(stdout).not.toMatch(/\$\d/);
    expect(stdout).toMatch(/total \(estimated projects\)/);
    expect(server.log).toHaveLength(0);
  });

  it('run --dry-run prints the same plan and exits 0 without starting Vitest', async () => {
    const args = ['--root', root, '--project', 'd2', '--subject', 'openai:gpt-4o-mini', '--trials', '1'];
    const plan = await cli(['plan', ...args]);
    const out = join(root, 'reports-dry');
    const dry = await spawned(['run', ...args, '--out', out, '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toBe(plan.stdout);
    expect(dry.stdout + dry.stderr).not.toMatch(/RUN\s+v\d|ceilingbench: run/);
    expect(existsSync(out)).toBe(false);
    expect(existsSync(join(root, '.ceilingbench'))).toBe(false);
    expect(server.log).toHaveLength(0);
  });

  it('after a `ceilingbench run`, the plan counts every answered trial as cached and sends nothing', {
    timeout: 300_000,
  }, async () => {
    const repo = mkdtempSync(join(tmpdir(), 'cb-plan-after-run-'));
    const args = ['--root', repo, '--project', 'd2', '--subject', 'openai:loop-model', '--trials', '1'];
    const cache = { CEILINGBENCH_CACHE_DIR: join(repo, 'cache') };
    const before = planSchema.parse(JSON.parse((await cli(['plan', ...args, '--json'], cache)).stdout));
    expect(before.totals).toMatchObject({ trials: 10, cached: 0 });
    const run = await spawned(['run', ...args, '--out', join(repo, 'reports')], {
      ...cache,
      OPENAI_API_KEY: 'sk-loopback',
    });
    expect(run.stdout + run.stderr).toMatch(/ceilingbench: run/);
    const sent = server.log.length;
    expect(sent).toBe(10);
    const after = planSchema.parse(JSON.parse((await cli(['plan', ...args, '--json'], cache)).stdout));
    expect(server.log).toHaveLength(sent);
    expect(after.totals).toMatchObject({ trials: 10, cached: 10 });
    expect(after.totals.amount.calls).toEqual({ low: 0, expected: 0, high: 0 });
    expect(after.totals.amount.promptTokens.expected).toBe(0);
    server.log.length = 0;
  });

  it('several --subject flags: a block per subject (d2@<label>), the run total, the limit against the total', {
    timeout: 300_000,
  }, async () => {
    const args = ['--root', root, '--project', 'd2', '--subject', 'openai:gpt-4o-mini', '--subject', 'oracle'];
    const { code, stdout, stderr } = await cli(['plan', ...args, '--trials', '2', '--max-calls', '30']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^ceilingbench plan · 2 subjects · 2 trials per cell/);
    expect(stdout).toMatch(/^openai:gpt-4o-mini · price per 1M tokens: input \$0\.15/m);
    expect(stdout).toMatch(/^d2@gpt-4o-mini\s+20\s+0\s+[\d,]+\s+[\d,]+\s+\$[\d.]+ \[/m);
    expect(stdout).toMatch(/^oracle · price: none \(tokens only\)/m);
    expect(stdout).toMatch(/^d2@oracle\s+20\s+0\s+[\d,]+\s+[\d,]+\s+no price$/m);
    expect(stdout).toMatch(/^run total \(2 subjects\)\s+40\s+0\s+[\d,]+\s+[\d,]+\s+\$/m);
    // one ledger for the run: the openai subject's 20 requests are what the limit counts (the oracle sends none)
    expect(stdout).toMatch(/--max-calls 30: the whole range is within it/);

    const json = planSchema.parse(JSON.parse((await cli(['plan', ...args, '--trials', '2', '--json'])).stdout));
    expect(json.subjects.map((s) => [s.spec, s.label, s.totals.amount.calls.expected])).toEqual([
      ['openai:gpt-4o-mini', 'gpt-4o-mini', 20],
      ['oracle', 'oracle', 20],
    ]);
    expect(json.projects.map((p) => p.name)).toEqual(['d2@gpt-4o-mini', 'd2@oracle']);
    expect(json.totals.amount.calls.expected).toBe(40);

    // the same from CEILINGBENCH_SUBJECTS, and from `run --dry-run` with the same flags
    const fromEnv = await cli(['plan', '--root', root, '--project', 'd2', '--trials', '2', '--max-calls', '30'], {
      CEILINGBENCH_SUBJECTS: 'openai:gpt-4o-mini,oracle',
    });
    expect(fromEnv.stdout).toBe(stdout);
    const dry = await spawned(['run', ...args, '--trials', '2', '--max-calls', '30', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toBe(stdout);
    expect(server.log).toHaveLength(0);
  });

  it('prints per gate the trials that decide it at 95% / 80% for the stated margin, beside the planned ones', async () => {
    const gates = JSON.stringify({
      d2: { minRetention: 0.9, minHorizon: { value: 8, mode: 'advisory' }, maxTfbcRate: 0.2 },
      puzzles: { collapseNoEarlierThan: 3 },
    });
    const args = ['plan', '--root', root, '--project', 'd2,puzzles', '--subject', 'sim:default'];
    const { code, stdout } = await cli([...args, '--gate-margin', '0.03'], { CEILINGBENCH_GATES: gates });
    expect(code).toBe(0);
    const json = planSchema.parse(JSON.parse((await cli([...args, '--json'], { CEILINGBENCH_GATES: gates })).stdout));
    const d2 = json.projects.find((p) => p.name === 'd2');
    const depths = [...new Set(d2?.units.filter((u) => u.kind === 'grid').flatMap((u) => u.cells.map((c) => c.level)))];
    const n = retentionTrialsPerCell(
      0.9,
      0.03,
      depths.sort((a, b) => a - b),
    );
    expect(stdout).toContain('gates: trials needed to decide each one at 95% confidence / 80% power, margin 0.03');
    expect(stdout).toContain(
      `  d2.minRetention 0.9: about ${n} trials per cell at N=${depths[0]}…${depths[depths.length - 1]} tell p_d 0.9 from 0.9 ± 0.03 (planned: 40 per cell)`,
    );
    // per design: the false-alarm rate at the threshold, the power a margin short, expected and maximum calls
    expect(stdout).toMatch(
      / {4}grid \+ point \(no error control\): false alarm 0\.500 at the threshold, power [01]\.\d{3} a margin short; calls \d+ \/ \d+ expected/,
    );
    expect(stdout).toMatch(/ {4}grid \+ test \(alpha 0\.05\): false alarm 0\.0\d\d at the threshold/);
    expect(stdout).toMatch(/ {4}sequential \(alpha 0\.05, 2 per depth a look, at most 160\): false alarm 0\.0\d\d/);
    // the configured sequential design's batch and maximum, not the defaults
    const configured = await cli([...args, '--design', 'sequential'], {
      CEILINGBENCH_GATES: gates,
      CEILINGBENCH_SEQUENTIAL_BATCH: '5',
      CEILINGBENCH_SEQUENTIAL_MAX: '100',
    });
    expect(configured.stdout).toMatch(/ {4}sequential \(alpha 0\.05, 5 per depth a look, at most 100\): false alarm/);
    expect(configured.stdout).toMatch(/design sequential \(the rows price the grid at these trials/);
    expect(stdout).toMatch(/ {2}d2\.minHorizon 8: H_0\.5 = 8 is p_d 0\.917; about \d+ trials per cell/);
    expect(stdout).toContain(`  d2.maxTfbcRate 0.2: about ${rateTrials(0.2, 0.03)} correct answers`);
    expect(stdout).toContain(`  puzzles.collapseNoEarlierThan 3: about ${twoRateTrials(0.1)} trials per level`);
    const bad = await cli([...args, '--gate-margin', '2']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--gate-margin: '2' is not a number in \(0, 1\)/);
  });

  it('states per design the tokens beside the calls, and plans a tested gate at its own margin and alpha', async () => {
    const gates = JSON.stringify({
      d2: {
        minRetention: { value: 0.9, evidence: 'test', alpha: 0.05, margin: 0.02 },
        maxTfbcRate: { value: 0.1, evidence: 'test', margin: 0.05 },
        notWorseThan: 'oracle',
        margin: 0.02,
      },
    });
    const args = ['plan', '--root', root, '--project', 'd2', '--subject', 'sim:default'];
    const { code, stdout } = await cli([...args, '--gate-margin', '0.05'], { CEILINGBENCH_GATES: gates });
    expect(code).toBe(0);
    const json = planSchema.parse(JSON.parse((await cli([...args, '--json'], { CEILINGBENCH_GATES: gates })).stdout));
    const d2 = json.totals.amount;
    // the grid's tokens are the plan's own total (every trial asked once: 400 calls at 40 per cell)
    const gridTokens = (d2.promptTokens.expected ?? 0) + (d2.outputTokens.expected ?? 0);
    const k = (x: number) => (x >= 1e6 ? `${(x / 1e6).toFixed(1)}M` : `${(x / 1e3).toFixed(0)}k`);
    expect(stdout).toContain('d2.minRetention 0.9: about 43 trials per cell'); // its own margin 0.02, not 0.05
    expect(stdout).toContain(
      `grid + test (alpha 0.05): false alarm 0.011 at the threshold, power 0.449 a margin short; calls 400 / 400 expected (at the threshold / a margin short), 400 at most; tokens ${k(gridTokens)} / ${k(gridTokens)} expected, ${k(d2.promptTokens.high + d2.outputTokens.high)} at most`,
    );
    expect(stdout).toMatch(
      /sequential \(alpha 0\.05, 2 per depth a look, at most 160\): .*1600 at most; tokens \d+k \/ \d+k expected, [\d.]+M at most/,
    );
    expect(stdout).toMatch(
      /d2\.maxTfbcRate 0\.1: .*\n {4}test \(alpha 0\.05\): false alarm at most 0\.05 at the threshold whatever the count; power 0\.8 at 0\.15 from about \d+ correct answers/,
    );
    // notWorseThan: its false alarm at −margin, its power one margin further on this grid, its calls and tokens
    expect(stdout).toContain(
      `  d2.notWorseThan oracle (margin 0.02, alpha 0.05): false alarm about 0.05 at Δp_d = −0.02 (the one-sided bootstrap bound); power about 0.423 at Δp_d = −0.04 with 40 per cell at N=5…50, the baseline at p_d 0.9 (the minRetention threshold); each subject asks its own grid: 400 calls, ${k(gridTokens)} tokens expected here`,
    );
  });

  it('a bad flag is a usage error (exit 2) naming the fix', async () => {
    const { code, stderr } = await cli(['plan', '--root', root, '--design', 'clever']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--design: 'clever' is not a design; use grid, adaptive or sequential/);
    const unmatched = await cli([
      'plan',
      '--root',
      root,
      '--subject',
      'oracle',
      '--subject',
      'sim:default',
      '--project',
      'd2@gpt*',
    ]);
    expect(unmatched.code).toBe(2);
    expect(unmatched.stderr).toMatch(
      /--project: 'd2@gpt\*' matches no subject of the run \(its labels: oracle, sim-default\)/,
    );
  });
});
