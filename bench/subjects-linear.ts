/**
 * Many subjects at linear cost (issue 43 item 3): `ceilingbench run --project d2` with S sim subjects at `--trials t`
 * against one subject at `--trials S·t` (the same number of trials), in CPU seconds of the process tree (GNU time),
 * and the size of ceilingbench.json and index.html, for S in `--subjects` (default 1,8,16,32).
 *
 *   nice npx tsx bench/subjects-linear.ts [--subjects 1,8,16,32] [--trials 40]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { subjects: { type: 'string', default: '1,8,16,32' }, trials: { type: 'string', default: '40' } },
});
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const GNU_TIME = '/usr/bin/time';
if (!existsSync(GNU_TIME)) {
  console.error('bench/subjects-linear.ts needs GNU time at /usr/bin/time');
  process.exit(2);
}
const TRIALS = Number(values.trials);

function run(subjects: string[], trials: number): { cpu: number; json: number; html: number } {
  const dir = mkdtempSync(join(os.tmpdir(), 'ceilingbench-subjects-'));
  try {
    const args = ['run', '--project', 'd2', ...subjects.flatMap((s) => ['--subject', s]), '--trials', String(trials)];
    const result = spawnSync(
      GNU_TIME,
      ['-f', 'CPU %U %S', process.execPath, 'scripts/dev-cli.js', ...args, '--out', dir],
      {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, CEILINGBENCH_CACHE_MODE: 'off' },
      },
    );
    const line = /CPU ([\d.]+) ([\d.]+)\s*$/.exec(result.stderr ?? '');
    if (!line)
      throw new Error(`ceilingbench ${args.join(' ')} failed (exit ${result.status}):\n${result.stderr.slice(-2000)}`);
    const size = (name: string) => (existsSync(join(dir, name)) ? statSync(join(dir, name)).size : Number.NaN);
    return { cpu: Number(line[1]) + Number(line[2]), json: size('ceilingbench.json'), html: size('index.html') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const counts = (values.subjects ?? '').split(',').map(Number);
const load = os.loadavg()[0];
console.log(
  `d2, ${TRIALS} trials per subject; load average at start ${load.toFixed(1)} on ${os.cpus().length} CPUs.\n`,
);
console.log(
  '| subjects × trials | CPU s | ceilingbench.json | index.html | one subject, same trials: CPU s · ceilingbench.json | CPU ratio |',
);
console.log('|---|---|---|---|---|---|');
for (const n of counts) {
  const subjects = Array.from({ length: n }, (_, i) => `sim:retention?p=0.9&seed=${i + 1}`);
  const many = run(subjects, TRIALS);
  const one = run(['sim:retention?p=0.9&seed=1'], TRIALS * n);
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;
  console.log(
    `| ${n} × ${TRIALS} | ${many.cpu.toFixed(1)} | ${mb(many.json)} | ${mb(many.html)} | ${one.cpu.toFixed(1)} · ${mb(one.json)} (--trials ${TRIALS * n}) | **×${(many.cpu / one.cpu).toFixed(2)}** |`,
  );
}
