/**
 * Wall time of the full CCB replication on the sim subject, as a user runs it:
 *
 *   ceilingbench run --project d1,d2,d3 --subject sim:default [--trials 200]
 *
 *   npx tsx scripts/perf/e2e.ts [--repeat 1] [--quick]
 *
 * Each run is a fresh `node bin/ceilingbench.js` process (tsx loader, Vitest start-up, workers, reports into a
 * temporary directory). Trials are counted from the written ceilingbench.json, not assumed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { repeat: { type: 'string', default: '1' }, quick: { type: 'boolean', default: false } },
});
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const GNU_TIME = '/usr/bin/time';
const configs = values.quick ? [[]] : [[], ['--trials', '200']];

console.log(
  '| command | trials (cells + ablation) | wall s | Vitest duration s | CPU s (user + sys, all processes) | exit | load avg (1 min) at start |',
);
console.log('|---|---|---|---|---|---|---|');
for (const extra of configs) {
  for (let r = 0; r < Number(values.repeat); r++) {
    const out = mkdtempSync(join(os.tmpdir(), 'ceilingbench-e2e-'));
    const args = ['run', '--project', 'd1,d2,d3', '--subject', 'sim:default', ...extra, '--out', out];
    const load = os.loadavg()[0];
    const start = performance.now();
    // CPU seconds of the whole process tree (GNU time's user + sys include waited-for children): a figure that,
    // unlike wall time, does not depend on what else the machine is running.
    const timed = existsSync(GNU_TIME);
    const command = timed
      ? [GNU_TIME, ['-f', 'CPU %U %S', process.execPath, 'scripts/dev-cli.js', ...args]]
      : [process.execPath, ['scripts/dev-cli.js', ...args]];
    const result = spawnSync(command[0] as string, command[1] as string[], { cwd: ROOT, encoding: 'utf8' });
    const cpuLine = /CPU ([\d.]+) ([\d.]+)\s*$/.exec(result.stderr ?? '');
    const cpu = cpuLine ? (Number(cpuLine[1]) + Number(cpuLine[2])).toFixed(1) : '–';
    const wall = (performance.now() - start) / 1000;
    let trials = 'no report';
    let vitest = '–';
    try {
      const report = JSON.parse(readFileSync(join(out, 'ceilingbench.json'), 'utf8')) as {
        summary: { trials: number };
        timing: { durationMs: number };
      };
      trials = String(report.summary.trials);
      vitest = (report.timing.durationMs / 1000).toFixed(1);
    } catch (error) {
      console.error(`e2e: no readable report in ${out}: ${(error as Error).message}\n${result.stderr.slice(-2000)}`);
    }
    rmSync(out, { recursive: true, force: true });
    console.log(
      `| \`ceilingbench ${args.slice(0, -2).join(' ')}\` | ${trials} | ${wall.toFixed(1)} | ${vitest} | ${cpu} | ${result.status} | ${load.toFixed(1)} |`,
    );
  }
}
