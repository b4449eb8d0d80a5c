import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Bench } from 'tinybench';
import { resolveRunConfig } from '../src/config/resolve.js';
import { buildPlan } from '../src/plan/build.js';
import { countTokens } from '../src/spend/tokenizer.js';
import { countPromptTokens } from '../src/subjects/openai/prompt-tokens.js';
import { estimateTokens } from '../src/subjects/usage-estimate.js';
import { countPrompt } from '../src/tasks/count/stimulus.js';
import { generateCell } from '../src/tasks/instances.js';
import { availableTasks, resolveTask } from '../src/tasks/registry.js';
import type { Prompt } from '../src/tasks/task.js';

/**
 * `--only tokenizer`: what the spend estimates' tokenizer (src/spend/tokenizer.ts, gpt-tokenizer) costs — loading
 * an encoding in a fresh process (what the first count of a `ceilingbench plan` pays), counting our own prompts
 * (tinybench), how far chars/4 is from the real count on them, and the wall time of a whole plan.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));

const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 1 ? x.toFixed(2) : x.toFixed(4));

function prompt(taskId: string, level: number): Prompt {
  const task = resolveTask(taskId);
  return task.render(generateCell(task, level, 1)[0]);
}

/** The first count in a fresh Node process: loading the encoding's rank tables, median of `runs`. */
function loadTimes(runs: number): string[] {
  const lines: string[] = [];
  for (const encoding of ['o200k_base', 'cl100k_base']) {
    const script = `const t = performance.now(); require('gpt-tokenizer/cjs/encoding/${encoding}').countTokens('x'); console.log(performance.now() - t);`;
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const out = spawnSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' });
      times.push(Number(out.stdout.trim()));
    }
    times.sort((a, b) => a - b);
    const rss = spawnSync(
      process.execPath,
      [
        '-e',
        `require('gpt-tokenizer/cjs/encoding/${encoding}').countTokens('x'); console.log(process.memoryUsage().rss)`,
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    lines.push(
      `| ${encoding} | ${ms(times[Math.floor(times.length / 2)])} | ${ms(times[0])}–${ms(times[times.length - 1])} | ${Math.round(Number(rss.stdout.trim()) / 1e6)} |`,
    );
  }
  return lines;
}

/** Every swept task at every level, `perLevel` instances each: prompt and canonical response. */
function corpus(perLevel: number): { texts: string[]; chars: number; tokens: number; estimate: number; ms: number } {
  const texts: string[] = [];
  for (const task of availableTasks().filter((t) => t.analysis === 'retention' || t.analysis === 'collapse')) {
    for (const level of task.levels.values) {
      for (const instance of generateCell(task, level, perLevel)) {
        const p = task.render(instance);
        texts.push(p.system, p.user, task.canonicalResponse(instance));
      }
    }
  }
  const start = performance.now();
  const tokens = texts.reduce((s, t) => s + countTokens(t), 0);
  const elapsed = performance.now() - start;
  return {
    texts,
    chars: texts.reduce((s, t) => s + t.length, 0),
    tokens,
    estimate: texts.reduce((s, t) => s + estimateTokens(t), 0),
    ms: elapsed,
  };
}

export async function runTokenizer(quick: boolean): Promise<void> {
  console.log('### Loading an encoding (fresh process, first count)\n');
  console.log('| encoding | median ms | min–max ms | RSS MB |');
  console.log('|---|---|---|---|');
  for (const line of loadTimes(quick ? 2 : 7)) console.log(line);

  countTokens('warm-up'); // the load above was another process's; this one pays it here, outside the timings
  const samples: Array<[string, string]> = [
    ['d1 prompt, N = 50', prompt('d1', 50).user],
    ['d3 prompt, N = 50', prompt('d3', 50).user],
    [
      'hanoi canonical response, L6',
      resolveTask('hanoi').canonicalResponse(generateCell(resolveTask('hanoi'), 6, 1)[0]),
    ],
    ['SCC count prompt, 20,000 items', countPrompt(20_000).user],
  ];
  const bench = new Bench({
    name: 'tokenizer',
    time: quick ? 50 : 400,
    warmupTime: quick ? 10 : 100,
    iterations: quick ? 3 : 10,
  });
  for (const [name, text] of samples) {
    bench.add(`countTokens · ${name} (${text.length.toLocaleString('en-US')} chars)`, () => {
      countTokens(text, 'gpt-4o-mini');
    });
  }
  const d2 = prompt('d2', 25);
  bench.add('countPromptTokens · d2 N = 25 (system + user, chat framing)', () => {
    countPromptTokens(d2, 'gpt-4o-mini');
  });
  bench.add(`chars/4 · ${samples[1][0]} (the estimate it replaces)`, () => {
    estimateTokens(samples[1][1]);
  });
  await bench.run();
  console.log('\n### Counting (tinybench, o200k_base)\n');
  console.log('| benchmark | mean ms | p50 ms | p99 ms | rme | samples |');
  console.log('|---|---|---|---|---|---|');
  for (const task of bench.tasks) {
    const r = task.result;
    if (r.state !== 'completed') {
      console.log(`| ${task.name} | ${r.state} | | | | |`);
      continue;
    }
    const { latency } = r;
    console.log(
      `| ${task.name} | ${ms(latency.mean)} | ${ms(latency.p50)} | ${ms(latency.p99)} | ±${latency.rme.toFixed(1)}% | ${latency.samplesCount} |`,
    );
  }

  const c = corpus(quick ? 1 : 4);
  console.log('\n### Our prompts: real tokens against chars/4\n');
  console.log(
    `${c.texts.length / 3} prompts with their canonical responses (every swept task, every level): ${c.chars.toLocaleString('en-US')} chars, ` +
      `${c.tokens.toLocaleString('en-US')} o200k_base tokens (${(c.chars / c.tokens).toFixed(2)} chars per token), counted in ${ms(c.ms)} ms ` +
      `(${(((c.chars / c.ms) * 1000) / 1e6).toFixed(2)} M chars/s); chars/4 says ${c.estimate.toLocaleString('en-US')} ` +
      `(${(((c.estimate - c.tokens) / c.tokens) * 100).toFixed(0)}%).`,
  );

  const root = mkdtempSync(join(tmpdir(), 'cb-bench-plan-'));
  const env = { CEILINGBENCH_SUBJECT: 'openai:gpt-4o-mini', CEILINGBENCH_CACHE_DIR: join(root, 'cache') };
  const config = await resolveRunConfig({ root, env });
  const priced = { ...config, prices: { 'gpt-4o-mini': { input: 0.15, cachedInput: 0.075, output: 0.6 } } };
  console.log('\n### A whole plan (in process, encoder already loaded)\n');
  console.log('| projects | trials per cell | wall ms | trials planned |');
  console.log('|---|---|---|---|');
  for (const projects of [['d1', 'd2', 'd3'], ['puzzles'], ['scc']]) {
    const start = performance.now();
    const plan = await buildPlan({ config: priced, env, projects });
    const wall = performance.now() - start;
    console.log(`| ${projects.join(', ')} | ${config.trials} | ${ms(wall)} | ${plan.totals.trials ?? 'range'} |`);
  }
}
