import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PyRandom } from '../../../src/rng/index.js';
import { type Report, reportSchema } from '../../../src/schema/report.js';
import { generateCell } from '../../../src/tasks/instances.js';
import { resolveTask } from '../../../src/tasks/registry.js';
import type { AnyTaskPlugin, TaskInstance } from '../../../src/tasks/task.js';
import type { LoopbackReply, LoopbackRequest } from '../../support/loopback-server.js';
import { CHILD_DEFAULT_ENV, ROOT } from '../../support/run-vitest.js';

/**
 * Whole-run helpers: a simulated model of a real task served by the loopback server (it recognises the
 * prompts of the run's cells and answers with the task's simulator, seeded by the trial key, so every
 * trial's answer is the same whichever run asks), and a benchmark child process that can be SIGKILLed.
 */

export const LOOP_MODEL = 'loop-model';

export interface KnownPrompt {
  task: AnyTaskPlugin;
  instance: TaskInstance;
}

/** The instances of a project's cells, by the user prompt the run sends (default variant, run seed 0). */
export function promptsOf(taskId: string, trials: number): Map<string, KnownPrompt> {
  const task = resolveTask(taskId);
  const prompts = new Map<string, KnownPrompt>();
  for (const level of task.levels.values) {
    for (const instance of generateCell(task, level, trials, { profile: task.profiles[0], seedOffset: 0 })) {
      prompts.set(task.render(instance).user, { task, instance });
    }
  }
  return prompts;
}

export function promptOf(request: LoopbackRequest, prompts: Map<string, KnownPrompt>): KnownPrompt | undefined {
  return prompts.get(request.messages.at(-1)?.content ?? '');
}

/** A model with per-step retention `retention`, answering in the task's format; deterministic per trial. */
export function simulatedModel(
  prompts: Map<string, KnownPrompt>,
  retention: number,
): (request: LoopbackRequest) => LoopbackReply {
  return (request) => {
    const known = promptOf(request, prompts);
    if (!known) return { text: 'I cannot read this prompt.' };
    const rng = new PyRandom(`reliability|${request.trialKey}`);
    return { text: known.task.simulate(known.instance, rng, { retention, recover: 0.1, capacity: 1e9 }) };
  };
}

export interface BenchChild {
  readonly child: ChildProcess;
  /** Resolves when the process group's leader exits. */
  readonly done: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stdout(): string;
  stderr(): string;
  /** SIGKILL to the whole process group: the runner and its Vitest workers die at once, as in a crash. */
  kill(): void;
}

const WORKER_ENV = ['VITEST', 'VITEST_WORKER_ID', 'VITEST_POOL_ID', 'NODE_ENV', 'TEST', 'VITEST_MODE'];

/** `node <args>` from the repository root in its own process group, with `env` over a clean environment. */
export function spawnBench(args: string[], env: Record<string, string>): BenchChild {
  const base: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (
      value !== undefined &&
      !WORKER_ENV.includes(key) &&
      !key.startsWith('CEILINGBENCH_') &&
      !key.startsWith('OPENAI_')
    )
      base[key] = value;
  }
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...base, CI: 'true', ...CHILD_DEFAULT_ENV, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve({ code, signal }));
  });
  return {
    child,
    done,
    stdout: () => out,
    stderr: () => err,
    kill: () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is already gone
      }
    },
  };
}

export const VITEST_BIN = join(ROOT, 'node_modules/vitest/vitest.mjs');
export { CLI_BIN } from '../../support/cli-bin.js';

export function readReport(outDir: string): Report {
  return reportSchema.parse(JSON.parse(readFileSync(join(outDir, 'ceilingbench.json'), 'utf8')));
}

/**
 * The fields that legitimately differ between a resumed and an uninterrupted run, removed before comparing:
 * wall-clock timings, and the bookkeeping of how an answer was obtained (cache hit or request, requests sent),
 * with what follows from it: the accounts (`spend`, paid vs from the cache) and a cell's token split.
 */
export const RUN_DEPENDENT_FIELDS = {
  report: ['timing', 'spend', 'run'],
  cell: ['cacheHits', 'calls'],
  cellTokens: ['paid', 'fromCache'],
  trial: ['latencyMs', 'cacheHit', 'attempts'],
} as const;

export function withoutRunDependentFields(report: Report): unknown {
  const copy = structuredClone(report) as unknown as Record<string, unknown>;
  for (const field of RUN_DEPENDENT_FIELDS.report) delete copy[field];
  for (const cell of copy.cells as Record<string, unknown>[]) {
    for (const field of RUN_DEPENDENT_FIELDS.cell) delete cell[field];
    for (const field of RUN_DEPENDENT_FIELDS.cellTokens) delete (cell.tokens as Record<string, unknown>)[field];
    for (const trial of cell.trials as Record<string, unknown>[]) {
      for (const field of RUN_DEPENDENT_FIELDS.trial) delete trial[field];
    }
  }
  return copy;
}
