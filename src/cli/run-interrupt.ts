import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Vitest } from 'vitest/node';
import type { SpendLedger } from '../spend/ledger.js';
import { setRunInterrupted } from '../vitest/interrupt-state.js';
import type { CliIo } from './command.js';

/**
 * How `ceilingbench run` answers Ctrl-C and SIGTERM (to the process or to its group): what the signals do in the
 * main process, how long it waits and what it says meanwhile, and how the workers leave the signals to it.
 */

const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** How long the first signal waits for the trials in flight before it cancels them (and what it says meanwhile). */
export const INTERRUPT_WAIT_MS = 30_000;
const INTERRUPT_STATUS_MS = 10_000;
/**
 * How long an interrupted run, its report written, waits for Vitest to stop its workers. Vitest 4.1's pool waits for
 * a worker's "started"/"stopped" reply without watching for its exit (60 s each): a fork the group's signal killed
 * before it could leave the signal to this process (src/vitest/worker-signals.ts) would hold the close that long.
 */
export const INTERRUPT_CLOSE_MS = 10_000;
const INTERRUPT_CLOSE_STATUS_MS = 1_000;

/**
 * How many of Vitest's forked test workers of this process are alive (Linux: /proc), or undefined where that cannot
 * be read. A fork the signal killed is gone from the list at once, while Vitest's pool may still wait for its reply.
 */
export function poolWorkersAlive(): number | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const children = readdirSync(`/proc/${process.pid}/task`).flatMap((tid) =>
      readFileSync(`/proc/${process.pid}/task/${tid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean),
    );
    return children.filter((pid) => {
      try {
        return /vitest[\\/]dist[\\/]workers[\\/]/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
      } catch {
        return false; // gone meanwhile
      }
    }).length;
  } catch {
    return undefined;
  }
}

const CLOSE_POLL_MS = 100;
/** How long a worker's unexpected exit waits for the signal that may have caused it (handled a moment later). */
const WORKER_EXIT_GRACE_MS = 1_000;

/**
 * Closes Vitest; after an interrupt, the wait is bounded and said, and it ends as soon as no test worker is left
 * alive (what Vitest's pool then still waits for is a reply no worker will send). Returns false when it stopped
 * waiting before Vitest closed (the caller then exits without waiting for the pool's timers).
 */
export async function closeVitest(
  vitest: Vitest,
  interrupted: boolean,
  io: CliIo,
  alive: () => number | undefined = poolWorkersAlive,
): Promise<boolean> {
  const closing = vitest.close();
  if (!interrupted) {
    await closing;
    return true;
  }
  const timers: NodeJS.Timeout[] = [];
  const ended = await Promise.race([
    closing.then(() => 'closed' as const),
    new Promise<'no-worker' | 'timeout'>((resolve) => {
      // a close that takes longer than a moment is said, and watched: Vitest closes its servers and the global
      // setups' teardown in that moment too, which no worker count says anything about
      timers.push(
        setTimeout(() => {
          const left = alive();
          if (left === 0) return resolve('no-worker');
          io.stderr(
            `ceilingbench: waiting up to ${INTERRUPT_CLOSE_MS / 1000} s for Vitest to stop its test workers` +
              `${left === undefined ? '' : ` (${left} left)`}\n`,
          );
          timers.push(
            setInterval(() => {
              if (alive() === 0) resolve('no-worker');
            }, CLOSE_POLL_MS),
          );
        }, INTERRUPT_CLOSE_STATUS_MS),
        setTimeout(() => resolve('timeout'), INTERRUPT_CLOSE_MS),
      );
    }),
  ]);
  for (const t of timers) clearTimeout(t);
  if (ended === 'timeout')
    io.stderr(
      `ceilingbench: Vitest had not stopped its test workers after ${INTERRUPT_CLOSE_MS / 1000} s; exiting ` +
        'without waiting for them\n',
    );
  return ended === 'closed';
}

/**
 * Ctrl-C and SIGTERM (to the process or its group), for every subject:
 * - the first stops launching: with a spend ledger (a paid subject) every trial not yet sent becomes `budget` and
 *   the answers in flight land in the response cache; the wait for them is bounded (INTERRUPT_WAIT_MS), says every
 *   INTERRUPT_STATUS_MS what it still waits for, and then cancels the run. Without a ledger (sim, oracle, replay:
 *   nothing is paid, nothing to wait for) the run is cancelled at once. The report is written (what finished), the
 *   report set is marked `interrupted`, and the run exits 4;
 * - the second cancels at once what is still running: the report is still written;
 * - the third exits at once (130), through Vitest's own handlers for their terminal clean-up.
 * Vitest's handlers, which exit on the first signal and lose everything, are taken off while the run lasts.
 * Returns the undo, and whether the run was interrupted.
 */
export function stopOnSignals(
  vitest: Vitest,
  ledger: SpendLedger | undefined,
  vitestHandlers: Map<string, Array<(...args: unknown[]) => void>>,
  io: CliIo,
): { restore: () => void; interrupted: () => boolean } {
  let signals = 0;
  const timers: NodeJS.Timeout[] = [];
  // Vitest's pool raises a worker it holds no task of that exits (a fork the group's signal killed before it could
  // leave the signal to this process), or one it tells to cancel that has no channel left, as an uncaught error
  // ("Worker exited unexpectedly", "Channel closed"), which would end this process before the report is written —
  // also before this process's own handler has seen the same signal (seen: 1 run in 8 under load). Such a worker
  // held no trial: the error is passed over once a signal has come, or comes within WORKER_EXIT_GRACE_MS; else
  // the worker died on its own, which is said and fails the run. Any other error is raised again.
  const onClosedChannel = (error: Error & { code?: string }) => {
    if (error.code !== 'ERR_IPC_CHANNEL_CLOSED' && error.message !== 'Worker exited unexpectedly') {
      process.off('uncaughtException', onClosedChannel);
      throw error;
    }
    if (signals > 0) return;
    setTimeout(() => {
      if (signals > 0) return;
      io.stderr(`ceilingbench: a Vitest test worker ended unexpectedly (${error.message}); the run fails\n`);
      process.exitCode = 1;
    }, WORKER_EXIT_GRACE_MS).unref();
  };
  process.on('uncaughtException', onClosedChannel);
  const cancel = (why: string) => {
    for (const t of timers) clearTimeout(t);
    io.stderr(`ceilingbench: ${why} — cancelling the tests still running; the report is written with what finished\n`);
    void vitest.cancelCurrentRun('keyboard-input');
  };
  const onSignal = (signal: NodeJS.Signals) => {
    signals++;
    if (signals === 1) {
      setRunInterrupted();
      if (!ledger || ledger.inFlight === 0) {
        io.stderr(`\nceilingbench: ${signal} — stopping (press Ctrl-C again to exit at once)\n`);
        cancel('no trial in flight to wait for');
        return;
      }
      ledger.interrupt();
      io.stderr(
        `\nceilingbench: ${signal} — no new request is sent; waiting up to ${INTERRUPT_WAIT_MS / 1000} s for the ` +
          `${ledger.inFlight} trial(s) in flight to land in the response cache, then writing the report ` +
          '(press Ctrl-C again to stop waiting)\n',
      );
      const status = setInterval(() => {
        if (ledger.inFlight > 0) io.stderr(`ceilingbench: still waiting for ${ledger.inFlight} trial(s) in flight\n`);
      }, INTERRUPT_STATUS_MS);
      status.unref();
      const deadline = setTimeout(() => {
        clearInterval(status);
        if (ledger.inFlight > 0)
          cancel(`gave up waiting for ${ledger.inFlight} trial(s) in flight after ${INTERRUPT_WAIT_MS / 1000} s`);
      }, INTERRUPT_WAIT_MS);
      deadline.unref();
      timers.push(deadline, status as unknown as NodeJS.Timeout);
      return;
    }
    if (signals === 2) {
      cancel(`${signal} again`);
      return;
    }
    process.exitCode = 130;
    for (const handler of vitestHandlers.get(signal) ?? []) handler(signal);
    process.exit(130);
  };
  for (const signal of STOP_SIGNALS) {
    for (const handler of vitestHandlers.get(signal) ?? []) process.off(signal, handler);
    process.on(signal, onSignal);
  }
  return {
    restore: () => {
      for (const t of timers) clearTimeout(t);
      for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
      process.off('uncaughtException', onClosedChannel);
    },
    interrupted: () => signals > 0,
  };
}

/** The listeners of the stop signals added while `start` ran (Vitest's logger adds its own). */
export async function signalListenersAddedBy<T>(
  start: () => Promise<T>,
): Promise<{ value: T; added: Map<string, Array<(...args: unknown[]) => void>> }> {
  const before = new Map(STOP_SIGNALS.map((s) => [s, new Set(process.listeners(s))]));
  const value = await start();
  const added = new Map(
    STOP_SIGNALS.map((s) => [
      s,
      process.listeners(s).filter((l) => !before.get(s)?.has(l)) as Array<(...args: unknown[]) => void>,
    ]),
  );
  return { value, added };
}

/**
 * Every worker of the run leaves Ctrl-C to this process from its first instant, also one still starting or collecting
 * when the signal comes (src/vitest/worker-signals.ts, loaded first through NODE_OPTIONS, which the pool's forks
 * inherit). Set for this run only: returns the undo, so that nothing this process starts later inherits it. Where
 * the module is not built beside this one (the CLI run from its sources), the workers install it when a test first
 * reads its configuration instead.
 */
export function workersLeaveStopSignalsToMain(): () => void {
  const module = new URL('../vitest/worker-signals.js', import.meta.url);
  if (!existsSync(fileURLToPath(module))) return () => {};
  const before = { NODE_OPTIONS: process.env.NODE_OPTIONS, CB_RUN_WORKER_SIGNALS: process.env.CB_RUN_WORKER_SIGNALS };
  process.env.CB_RUN_WORKER_SIGNALS = '1';
  process.env.NODE_OPTIONS = `${before.NODE_OPTIONS ?? ''} --import=${JSON.stringify(module.href)}`.trim();
  return () => {
    for (const [key, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  };
}
