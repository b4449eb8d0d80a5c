import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_BIN, spawnBench } from '../reliability/support/bench-run.js';

/**
 * Issue 42 item 4 through `ceilingbench run` on the simulator: one Ctrl-C (or a SIGTERM to the process group, as
 * CI cancelling a job sends) ended the run with 130, no message and no report. It now stops, writes the report
 * with what finished, marks the set `interrupted` and exits 4, as the README promises.
 */
async function interrupted(signal: NodeJS.Signals) {
  const outDir = mkdtempSync(join(tmpdir(), 'cb-interrupt-'));
  const bench = spawnBench(
    // 200 trials a cell: the run lasts long enough that the signal, sent once the second cell is reported, cannot
    // come after it ended (a loaded machine reads the child's output late)
    [CLI_BIN, 'run', '--project', 'd1,d2,d3', '--subject', 'sim:default', '--trials', '200', '--out', outDir],
    { CEILINGBENCH_CACHE_DIR: mkdtempSync(join(tmpdir(), 'cb-interrupt-cache-')) },
  );
  await new Promise<void>((resolve) => {
    const poll = setInterval(() => {
      if (/\[2\/\d+\+?\]/.test(bench.stdout())) {
        clearInterval(poll);
        resolve();
      }
    }, 10);
  });
  // to the whole process group, workers included
  process.kill(-(bench.child.pid as number), signal);
  const sent = performance.now();
  const { code } = await bench.done;
  return { code, output: bench.stdout() + bench.stderr(), outDir, waitedMs: performance.now() - sent };
}

// It raced Vitest's pool: a worker the group's SIGTERM killed while it tore down (its files done) or started held the
// pool's close for its 60 s timeout (src/vitest/worker-signals.ts, src/cli/run-interrupt.ts say how that is avoided).
describe('an interrupted run on the simulator', { timeout: 120_000 }, () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    '%s to the group: a message, the report, `interrupted`, exit 4',
    async (signal) => {
      const r = await interrupted(signal);
      expect(r.output).toContain(`ceilingbench: ${signal} — stopping`);
      expect(existsSync(join(r.outDir, 'ceilingbench.json')), r.output).toBe(true);
      const manifest = JSON.parse(readFileSync(join(r.outDir, 'ceilingbench.set.json'), 'utf8'));
      expect(manifest.run.state).toBe('interrupted');
      // the report says so itself, with the trials the interruption cut (issue 42: they were absent)
      const report = JSON.parse(readFileSync(join(r.outDir, 'ceilingbench.json'), 'utf8'));
      expect(report.run).toMatchObject({ id: manifest.run.id, state: 'interrupted' });
      expect(r.output).toMatch(/interrupted: \d+ trial\(s\) cut/);
      expect(r.code, r.output).toBe(4);
      // not the pool's 60 s timeout for a worker killed while it started or tore down
      expect(r.waitedMs, r.output).toBeLessThan(45_000);
    },
  );
});
