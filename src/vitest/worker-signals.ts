/**
 * Under `ceilingbench run`, Ctrl-C and SIGTERM reach the whole process group when they are sent to it (a terminal's
 * Ctrl-C, CI cancelling a job), workers included. The main process answers every one (the first stops launching
 * trials and cancels the run, which aborts the requests in flight and records their trials as interrupted; the
 * second cancels at once; both write the report; the third exits 130), and it ends the workers through Vitest's
 * pool. So a worker of the run leaves both signals to the main process:
 * - a worker that died of the signal took its trials in flight with it before the main process could record them
 *   (the endpoint kept generating the abandoned requests);
 * - Vitest 4.1's pool waits for a worker's "started" and "stopped" replies without watching for its exit: a worker
 *   killed by the group's signal while it starts or tears down (its files done) held the pool's close for its 60 s
 *   timeout, and the run exited late (test/e2e/interrupt.test.ts).
 * Vitest's pool itself ends a worker with SIGTERM once the worker has answered its `stop` request (SIGKILL 500 ms
 * later): a worker that has been asked to stop, or whose main process is gone, still ends on SIGTERM as before.
 * Signals reach a worker thread through the main thread only, so in a thread these listeners never run.
 *
 * The CLI loads this module first in every worker (NODE_OPTIONS `--import`, src/cli/commands/run.ts), so that a
 * worker still starting or collecting when the signal comes does not die of it either (a fork killed before this
 * module runs is left to the CLI's bounded close). A run under the plugin alone installs the same listeners when a
 * test first reads its configuration (context.ts).
 */
const INSTALLED = Symbol.for('ceilingbench.worker-interrupt');

/** Vitest's request to a forked worker to tear down (it answers `stopped`; the pool then sends SIGTERM). */
const isStopRequest = (message: unknown): boolean =>
  typeof message === 'object' &&
  message !== null &&
  (message as { __vitest_worker_request__?: unknown }).__vitest_worker_request__ === true &&
  (message as { type?: unknown }).type === 'stop';

export function leaveStopSignalsToMain(): void {
  const global = globalThis as { [INSTALLED]?: boolean };
  if (global[INSTALLED]) return;
  global[INSTALLED] = true;
  // the main process answers it (and ends this worker through the pool)
  process.on('SIGINT', () => {});
  // a worker thread, or a process not forked with an IPC channel: SIGTERM keeps its default
  if (typeof process.send !== 'function') return;
  let stopRequested = false;
  const onMessage = (message: unknown) => {
    if (!isStopRequest(message)) return;
    stopRequested = true;
    process.off('message', onMessage);
  };
  // listen only once Vitest listens: on Node 22.12 a `message` listener of ours alone would take the pool's first
  // message before Vitest's own listener exists (the channel delivers to whoever listens), and the worker would
  // never start (0 tests, the run's timeout)
  const listenAfterVitest = (event: string | symbol) => {
    if (event !== 'message') return;
    process.off('newListener', listenAfterVitest);
    setImmediate(() => process.on('message', onMessage));
  };
  if (process.listenerCount('message') > 0) process.on('message', onMessage);
  else process.on('newListener', listenAfterVitest);
  const onTerm = () => {
    if (!stopRequested && process.connected) return;
    // the pool's own SIGTERM (or an orphan's): end as the default action would
    process.off('SIGTERM', onTerm);
    process.kill(process.pid, 'SIGTERM');
  };
  process.on('SIGTERM', onTerm);
}

// loaded by `--import` in a worker of `ceilingbench run`: the environment says so (a test importing this module in
// any other process installs nothing)
if (process.env.CB_RUN_WORKER_SIGNALS === '1') leaveStopSignalsToMain();
