/**
 * Issue 31's four figures in one run, in CPU seconds (user + sys of the whole process tree, GNU time): what a
 * loaded machine changes least. Each CLI run is a fresh `node scripts/dev-cli.js` (dist/ when current).
 *
 *   start-up      `run --project d1 --subject sim:default --trials 1`: the CLI to its first cells and reports
 *   per trial     the slope between `--trials <lo>` and `--trials <hi>` on d1 (trials counted from the report)
 *   per subject   d1 at `--trials <lo>` with 1 and with 6 sim subjects: CPU(6) ÷ CPU(1) (issue 31 asks ≤ 1.5)
 *   report        `ceilingbench report` of the largest run's ceilingbench.json into a fresh directory
 *
 *   npx tsx bench/ratios.ts [--lo 10] [--hi 600]
 *
 * Prints a markdown table; BENCHMARKS.md carries the figures of a run with the load it ran at.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { lo: { type: 'string', default: '10' }, hi: { type: 'string', default: '600' } },
});
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const GNU_TIME = '/usr/bin/time';
if (!existsSync(GNU_TIME)) {
  console.error('bench/ratios.ts needs GNU time at /usr/bin/time (CPU seconds of the process tree)');
  process.exit(2);
}
const SUBJECTS = [1, 2, 3, 4, 5, 6].map((i) => `sim:retention?p=0.9${i}`);
const dirs: string[] = [];

interface Measured {
  cpu: number;
  trials: number | undefined;
  out: string;
}

function cli(args: string[], out?: string): Measured {
  const dir = out ?? mkdtempSync(join(os.tmpdir(), 'ceilingbench-ratios-'));
  dirs.push(dir);
  const result = spawnSync(
    GNU_TIME,
    ['-f', 'CPU %U %S', process.execPath, 'scripts/dev-cli.js', ...args, '--out', dir],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  );
  const line = /CPU ([\d.]+) ([\d.]+)\s*$/.exec(result.stderr ?? '');
  if (!line || result.status !== 0) {
    throw new Error(`ceilingbench ${args.join(' ')} failed (exit ${result.status}):\n${result.stderr.slice(-2000)}`);
  }
  let trials: number | undefined;
  const json = join(dir, 'ceilingbench.json');
  if (existsSync(json) && args[0] === 'run') {
    trials = (JSON.parse(readFileSync(json, 'utf8')) as { summary: { trials: number } }).summary.trials;
  }
  return { cpu: Number(line[1]) + Number(line[2]), trials, out: dir };
}

const run = (trials: string, subjects: string[]) =>
  cli(['run', '--project', 'd1', ...subjects.flatMap((s) => ['--subject', s]), '--trials', trials]);

try {
  const load = os.loadavg()[0];
  const startup = run('1', ['sim:default']);
  const lo = run(values.lo ?? '10', ['sim:default']);
  const hi = run(values.hi ?? '160', ['sim:default']);
  const six = run(values.lo ?? '10', SUBJECTS);
  const report = cli(['report', join(hi.out, 'ceilingbench.json')]);
  const perTrialMs = ((hi.cpu - lo.cpu) / ((hi.trials ?? 0) - (lo.trials ?? 0))) * 1000;
  console.log(`load average (1 min) at start: ${load.toFixed(1)}; ${os.cpus().length} cores\n`);
  console.log('| figure | measured | CPU s |');
  console.log('|---|---|---|');
  console.log(`| start-up: run d1, 1 trial per cell (${startup.trials} trials) | CPU s | ${startup.cpu.toFixed(1)} |`);
  console.log(
    `| per trial: d1 ${lo.trials} → ${hi.trials} trials | ${perTrialMs.toFixed(2)} ms per trial | ${lo.cpu.toFixed(1)} → ${hi.cpu.toFixed(1)} |`,
  );
  console.log(
    `| per subject: d1, ${lo.trials} trials per subject, 1 → 6 subjects | ×${(six.cpu / lo.cpu).toFixed(2)} (${((six.cpu - lo.cpu) / 5).toFixed(1)} CPU s per extra subject) | ${lo.cpu.toFixed(1)} → ${six.cpu.toFixed(1)} |`,
  );
  console.log(`| report: \`ceilingbench report\` of the ${hi.trials}-trial run | CPU s | ${report.cpu.toFixed(1)} |`);
} finally {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
