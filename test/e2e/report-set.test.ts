import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { CLI_BIN, spawnBench } from '../reliability/support/bench-run.js';

/**
 * Issue 42 items 5 and 4 through `ceilingbench run`: a folder holding the user's own index.html/summary.md is
 * refused and left as it was; a run SIGKILLed after it started leaves the folder's set marked `state: running`
 * (not the previous run's finished set, unmarked), and `compare` flags it.
 */
const run = (outDir: string, extra: Record<string, string> = {}) =>
  spawnBench([CLI_BIN, 'run', '--project', 'd2', '--subject', 'sim:default', '--trials', '2', '--out', outDir], {
    CEILINGBENCH_CACHE_DIR: mkdtempSync(join(tmpdir(), 'cb-set-cache-')),
    CEILINGBENCH_HTML: 'false',
    ...extra,
  });

describe('the report set through `ceilingbench run`', { timeout: 180_000 }, () => {
  it("refuses an --out folder with the user's own files of the set's names, and leaves them", async () => {
    const docs = mkdtempSync(join(tmpdir(), 'cb-set-docs-'));
    writeFileSync(join(docs, 'index.html'), '<h1>my project</h1>');
    writeFileSync(join(docs, 'summary.md'), '# my notes');
    const bench = run(docs);
    const { code } = await bench.done;
    const output = bench.stdout() + bench.stderr();
    expect(output).toMatch(/the report folder .* holds summary\.md, index\.html, which ceilingbench did not write/);
    expect(code).toBe(2);
    // refused before the run, not after it: no test ran
    expect(output).not.toMatch(/\[1\/\d+\+?\]/);
    expect(readFileSync(join(docs, 'index.html'), 'utf8')).toBe('<h1>my project</h1>');
    expect(readFileSync(join(docs, 'summary.md'), 'utf8')).toBe('# my notes');
    expect(existsSync(join(docs, 'ceilingbench.json'))).toBe(false);
  });

  it('a run killed (SIGKILL of its process group) after it started leaves the set marked running', async () => {
    const out = mkdtempSync(join(tmpdir(), 'cb-set-kill-'));
    const first = run(out);
    expect((await first.done).code, first.stdout() + first.stderr()).toBe(0);
    const manifest = () => JSON.parse(readFileSync(join(out, 'ceilingbench.set.json'), 'utf8'));
    expect(manifest().run.state).toBe('finished');
    const finishedId = manifest().run.id;
    // the second run is killed as soon as its first cell is done (an OOM kill, a cancelled CI job)
    const second = run(out, { CEILINGBENCH_TRIALS: '40' });
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (/\[1\/\d+\+?\]/.test(second.stdout() + second.stderr())) {
          clearInterval(poll);
          resolve();
        }
      }, 20);
    });
    process.kill(-(second.child.pid as number), 'SIGKILL');
    await second.done;
    expect(manifest().run.state).toBe('running');
    expect(manifest().run.id).not.toBe(finishedId);
    const err: string[] = [];
    const report = join(out, 'ceilingbench.json');
    const code = await runCli(['compare', report, report], { stdout: () => {}, stderr: (t) => err.push(t) });
    expect(err.join('')).toMatch(/warning: the run .* did not finish \(state: running/);
    // and its verdict fails: an earlier run's report is no evidence for this one
    expect(code).toBe(1);
  });
});
