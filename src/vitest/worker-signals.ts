/**
 * Under `ceilingbench run`, Ctrl-C reaches the whole process group, workers included. The main process answers
 * every one (the first stops launching trials and waits for those in flight, the second cancels the run; both write
 * the report; the third exits 130), and it ends the workers through Vitest's pool (a cancel, then SIGTERM): a worker
 * that died of Ctrl-C itself took its results with it before the main process could write them, so a worker of the
 * run leaves SIGINT to the main process. Signals reach a worker thread through the main thread only, so in a
 * thread this listener never runs.
 *
 * SIGTERM is left to its default: Vitest's pool ends its workers with it (a worker that ignored it would hold the
 * run for the pool's timeout and fail it), and a SIGTERM to the whole group (CI cancelling a job) ends the workers
 * with their trials in flight while the main process cancels the run and writes the report with what finished.
 *
 * The CLI loads this module first in every worker (NODE_OPTIONS `--import`, src/cli/commands/run.ts), so that a
 * worker still starting or collecting when Ctrl-C comes does not die of it either. A run under the plugin alone
 * installs the same listener when a test first reads its configuration (context.ts).
 */
const INSTALLED = Symbol.for('ceilingbench.worker-interrupt');

export function leaveFirstInterruptToMain(): void {
  const global = globalThis as { [INSTALLED]?: boolean };
  if (global[INSTALLED]) return;
  global[INSTALLED] = true;
  // the main process answers it (and ends this worker through the pool)
  process.on('SIGINT', () => {});
}

// loaded by `--import` in a worker of `ceilingbench run`: the environment says so (a test importing this module in
// any other process installs nothing)
if (process.env.CB_RUN_WORKER_SIGNALS === '1') leaveFirstInterruptToMain();
