/**
 * `npm run bench:perf` = `tsx bench/run.ts`: every measurement in BENCHMARKS.md, printed as markdown.
 *
 *   tsx bench/run.ts [--only micro,linearity,throughput,limits,subjects,ledger,adaptive,e2e,ratios,tokenizer] [--quick]
 *
 * micro       tinybench: per-task generate and render+parse+grade at the deepest level, the p_d fit with a
 *             2,000-resample bootstrap, the SCC ladder on the replay subject, subject spec parsing
 * linearity   tinybench: parse/grade time against input size (10× steps) on hostile and adversarial text, per
 *             registered task and for the parsers whose unit tests hold the same inputs (bench/linearity-suite.ts)
 * throughput  scripts/perf/throughput.ts: trials/s at concurrency 4, 16, 64 against a loopback server
 * limits      bench/throughput-limits.ts: the openai subject with its default settings, on a real clock, against a
 *             loopback server hiding a concurrency cap, a request or token bucket (with and without rate-limit
 *             headers), at 400 ms and 2 s latency, and a one-at-a-time queueing server (issue 43)
 * subjects    bench/subjects-linear.ts: `run --project d2` with S subjects against one subject at the same trials
 * ledger      bench/ledger-cost.ts: the spend ledger's loopback round trips at 4, 16, 64 trials in flight (CPU per
 *             trial, admit latency, ÷ a known limit against the same trials without the ledger)
 * adaptive    bench/adaptive-suite.ts: grid, call-optimal and cost-aware adaptive designs and the bound with p known, in
 *             priced tokens on D1, D2, D3 (cost ratio, CI width, coverage; 200 replications per p)
 * e2e         scripts/perf/e2e.ts: wall time of `ceilingbench run --project d1,d2,d3 --subject sim:default`
 * ratios      bench/ratios.ts: issue 31's figures in CPU seconds — start-up (1 trial per cell), per trial (slope),
 *             per subject (1 → 6 sim subjects), `ceilingbench report` of the largest run
 * tokenizer   bench/tokenizer-suite.ts: the spend estimates' tokenizer — loading an encoding, counting our prompts
 *             (tinybench), real tokens against chars/4, and the wall time of `ceilingbench plan`'s computation
 *
 * --quick shortens every part (fewer samples, replications and trials) for a smoke run; its numbers are not
 * the ones to publish. Each script part runs in its own Node process so that timings do not interfere.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Bench, type Task } from 'tinybench';
import { addFitBenches } from './fit-suite.js';
import { runLinearity } from './linearity-suite.js';
import { machineInfo } from './machine.js';
import { addSccBenches, SCC_BENCH_MODEL, sccCalls, sccScheduleCallsTable } from './scc-suite.js';
import { addSubjectBenches } from './subject-suite.js';
import { addTaskBenches } from './task-suite.js';
import { runTokenizer } from './tokenizer-suite.js';

const PARTS = [
  'micro',
  'linearity',
  'throughput',
  'limits',
  'subjects',
  'ledger',
  'adaptive',
  'e2e',
  'ratios',
  'tokenizer',
] as const;
type Part = (typeof PARTS)[number];

const { values } = parseArgs({
  options: { only: { type: 'string', default: PARTS.join(',') }, quick: { type: 'boolean', default: false } },
});
const parts = (values.only ?? '').split(',').filter(Boolean);
const unknown = parts.filter((p) => !(PARTS as readonly string[]).includes(p));
if (unknown.length > 0) {
  console.error(`bench: unknown part '${unknown.join(',')}'; use --only with a comma list of ${PARTS.join(', ')}`);
  process.exit(2);
}
const ROOT = fileURLToPath(new URL('..', import.meta.url));

const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 1 ? x.toFixed(2) : x.toFixed(4));

function row(task: Task): string {
  const r = task.result;
  if (r.state !== 'completed') {
    const detail = r.state === 'errored' ? `: ${r.error.message}` : '';
    return `| ${task.name} | ${r.state}${detail} | | | | |`;
  }
  const { latency } = r;
  return `| ${task.name} | ${ms(latency.mean)} | ${ms(latency.p50)} | ${ms(latency.p99)} | ±${latency.rme.toFixed(1)}% | ${latency.samplesCount} |`;
}

async function micro(quick: boolean): Promise<void> {
  const options = { time: quick ? 50 : 400, warmupTime: quick ? 10 : 100, iterations: quick ? 3 : 10, throws: false };
  const sections: Array<[string, Bench]> = [
    ['Tasks at their deepest level', new Bench({ name: 'tasks', ...options })],
    ['p_d fit (40 × 10 grid, p = 0.95)', new Bench({ name: 'fit', ...options })],
    ['SCC ladder on the replay subject', new Bench({ name: 'scc', ...options })],
    ['Subject spec parsing', new Bench({ name: 'subjects', ...options })],
  ];
  addTaskBenches(sections[0][1]);
  addFitBenches(sections[1][1]);
  await addSccBenches(sections[2][1]);
  addSubjectBenches(sections[3][1]);
  for (const [title, bench] of sections) {
    await bench.run();
    console.log(`\n### ${title}\n`);
    console.log('| benchmark | mean ms | p50 ms | p99 ms | rme | samples |');
    console.log('|---|---|---|---|---|---|');
    for (const task of bench.tasks) console.log(row(task));
  }
  console.log(
    `\nSCC calls per ladder on ${SCC_BENCH_MODEL} (preflight included; both reach the published CC): authors' full tiers ${sccCalls.authors}, ours ${sccCalls.ours}.`,
  );
  console.log('\n### SCC calls on the 44 released closed-model logs, by schedule (counted, not timed)\n');
  console.log(await sccScheduleCallsTable([1, 4]));
}

function script(name: string, args: string[], dir = 'scripts/perf'): void {
  const result = spawnSync(process.execPath, ['--import', 'tsx', `${dir}/${name}`, ...args], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    console.error(`bench: ${dir}/${name} exited with ${result.status ?? result.signal}`);
    process.exitCode = 1;
  }
}

console.log(
  `## ceilingbench performance (parts: ${parts.join(', ')}${values.quick ? '; QUICK smoke run — not for publication' : ''})\n`,
);
console.log('```');
console.log(machineInfo());
console.log('```');
const run: Record<Part, () => Promise<void> | void> = {
  micro: () => micro(values.quick ?? false),
  linearity: () => runLinearity(values.quick ?? false),
  throughput: () => script('throughput.ts', values.quick ? ['--quick'] : []),
  limits: () => script('throughput-limits.ts', values.quick ? ['--quick'] : [], 'bench'),
  subjects: () => script('subjects-linear.ts', values.quick ? ['--subjects', '1,8'] : [], 'bench'),
  adaptive: () =>
    script(
      'adaptive-suite.ts',
      values.quick ? ['--reps', '20', '--sim-reps', '5', '--coverage-reps', '0'] : [],
      'bench',
    ),
  ledger: () => script('ledger-cost.ts', values.quick ? ['--trials', '300'] : [], 'bench'),
  e2e: () => script('e2e.ts', values.quick ? ['--quick'] : []),
  ratios: () => script('ratios.ts', values.quick ? ['--hi', '40'] : [], 'bench'),
  tokenizer: () => runTokenizer(values.quick ?? false),
};
for (const part of PARTS) {
  if (!parts.includes(part)) continue;
  console.log(`\n## ${part}\n`);
  await run[part]();
}
