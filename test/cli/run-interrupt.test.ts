import { fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Vitest } from 'vitest/node';
import { closeVitest, INTERRUPT_CLOSE_MS, poolWorkersAlive } from '../../src/cli/run-interrupt.js';
import { ROOT } from '../support/run-vitest.js';

/**
 * Issue 42: a signal to the process group of `ceilingbench run` killed Vitest's workers with the main process's
 * cancel. One killed while its pool waited for its "started" or "stopped" reply held Vitest's close for the pool's
 * 60 s timeout; one killed with trials in flight lost them. A worker of the run now leaves both signals to the main
 * process until its pool asks it to stop, and an interrupted run's close is bounded and said.
 */

const WORKER_SIGNALS = pathToFileURL(join(ROOT, 'dist/src/vitest/worker-signals.js')).href;

/** A stand-in for a forked Vitest worker: it answers `ping` while it lives. */
function forkWorker(env: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'cb-worker-signals-'));
  const script = join(dir, 'worker.mjs');
  writeFileSync(
    script,
    "process.on('message', (m) => { if (m === 'ping') process.send('pong'); });\n" +
      "setInterval(() => {}, 1000);\nprocess.send('ready');\n",
  );
  const child = fork(script, [], { execArgv: [`--import=${WORKER_SIGNALS}`], env: { ...process.env, ...env } });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.on('exit', (code, signal) => resolve(signal ?? code)),
  );
  const next = () => new Promise<unknown>((resolve) => child.once('message', resolve));
  return { child, exited, next };
}

describe('a worker of `ceilingbench run` leaves the stop signals to the main process', () => {
  it('survives SIGINT and SIGTERM, and ends on SIGTERM once its pool asked it to stop', async () => {
    const worker = forkWorker({ CB_RUN_WORKER_SIGNALS: '1' });
    try {
      expect(await worker.next()).toBe('ready');
      worker.child.kill('SIGTERM');
      worker.child.kill('SIGINT');
      const pong = worker.next();
      worker.child.send('ping');
      expect(await pong).toBe('pong');
      // Vitest's stop request, then the pool's SIGTERM
      worker.child.send({ __vitest_worker_request__: true, type: 'stop' });
      const pong2 = worker.next();
      worker.child.send('ping');
      await pong2;
      worker.child.kill('SIGTERM');
      expect(await worker.exited).toBe('SIGTERM');
    } finally {
      worker.child.kill('SIGKILL');
    }
  });

  it('outside a run (the variable unset) SIGTERM ends a worker as before', async () => {
    const worker = forkWorker({ CB_RUN_WORKER_SIGNALS: '0' });
    expect(await worker.next()).toBe('ready');
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe('SIGTERM');
  });
});

describe('the close of an interrupted run is bounded and said', () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  const never = { close: () => new Promise<void>(() => {}) } as unknown as Vitest;

  it('gives up after INTERRUPT_CLOSE_MS, saying what it waited for', async () => {
    vi.useFakeTimers();
    const said: string[] = [];
    const io = { stdout: () => {}, stderr: (s: string) => said.push(s) } as never;
    const closing = closeVitest(never, true, io, () => 2);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(said.join('')).toContain(
      `waiting up to ${INTERRUPT_CLOSE_MS / 1000} s for Vitest to stop its test workers (2 left)`,
    );
    await vi.advanceTimersByTimeAsync(INTERRUPT_CLOSE_MS);
    expect(await closing).toBe(false);
    expect(said.join('')).toContain('exiting without waiting for them');
  });

  it('stops waiting once no test worker is left alive (the pool waits for a reply no worker will send)', async () => {
    vi.useFakeTimers();
    const said: string[] = [];
    let left = 1;
    const closing = closeVitest(
      never,
      true,
      { stdout: () => {}, stderr: (s: string) => said.push(s) } as never,
      () => left,
    );
    await vi.advanceTimersByTimeAsync(1_500);
    left = 0;
    await vi.advanceTimersByTimeAsync(200);
    expect(await closing).toBe(false);
    expect(said.join('')).not.toContain('exiting without waiting');
  });

  it.runIf(process.platform === 'linux')('counts the forked Vitest workers of this process, alive', async () => {
    const before = poolWorkersAlive() ?? -1;
    const dir = join(mkdtempSync(join(tmpdir(), 'cb-pool-')), 'vitest', 'dist', 'workers');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'forks.js'), "process.send('ready'); setInterval(() => {}, 1000);\n");
    const child = fork(join(dir, 'forks.js'), [], { env: { ...process.env, CB_RUN_WORKER_SIGNALS: '0' } });
    await new Promise((resolve) => child.once('message', resolve));
    expect(poolWorkersAlive()).toBe(before + 1);
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await gone;
    expect(poolWorkersAlive()).toBe(before);
  });

  it('says nothing when the close is prompt, and waits as long as it takes when the run was not interrupted', async () => {
    const said: string[] = [];
    const io = { stdout: () => {}, stderr: (s: string) => said.push(s) } as never;
    expect(await closeVitest({ close: async () => {} } as unknown as Vitest, true, io)).toBe(true);
    vi.useFakeTimers();
    let done = false;
    const slow = { close: () => new Promise<void>((r) => setTimeout(r, 5 * INTERRUPT_CLOSE_MS)) } as unknown as Vitest;
    const closing = closeVitest(slow, false, io).then((v) => {
      done = true;
      return v;
    });
    await vi.advanceTimersByTimeAsync(2 * INTERRUPT_CLOSE_MS);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(3 * INTERRUPT_CLOSE_MS);
    expect(await closing).toBe(true);
    expect(said).toEqual([]);
  });
});
