import { type ChildProcess, spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheEntrySchema } from '../../src/subjects/index.js';
import { type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';
import { filesContaining, filesUnder, SENTINEL_API_KEY, tempDir } from '../support/openai-harness.js';
import { simStepsAnswerer } from '../support/sim-over-http.js';

const CHILD = fileURLToPath(new URL('../support/resume-child.ts', import.meta.url));
const REPO = fileURLToPath(new URL('../..', import.meta.url));
const TRIALS = 12;
const KILL_AFTER = 5;

interface Line {
  i: number;
  kind: 'answer' | 'error';
  key?: string;
  text?: string;
  finishReason?: string;
  usage?: unknown;
  cacheHit?: boolean;
}

let server: LoopbackServer;
let work: { path: string; remove: () => Promise<void> };
beforeAll(async () => {
  // 25 ms per answer: run 1 is still mid-way when it is killed after KILL_AFTER trials
  server = await startLoopbackServer({ answer: simStepsAnswerer(0.7), latency: { medianMs: 25, sigma: 0.2, seed: 3 } });
  work = await tempDir('cb-resume-');
});
afterAll(async () => {
  await server.close();
  await work.remove();
});

/** Runs the child; resolves with its lines when it exits, or kills it after `killAfter` lines. */
function runChild(
  cacheDir: string,
  logName: string,
  killAfter?: number,
): Promise<{ lines: Line[]; signal: string | null }> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', CHILD], {
      cwd: REPO,
      env: {
        ...process.env,
        OPENAI_BASE_URL: server.baseURL,
        OPENAI_API_KEY: SENTINEL_API_KEY,
        CEILINGBENCH_CACHE_DIR: cacheDir,
        CEILINGBENCH_CACHE_MODE: 'read-write',
        RESUME_TRIALS: String(TRIALS),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines: Line[] = [];
    let stdout = '';
    let stderr = '';
    let buffered = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      buffered += chunk.toString();
      let newline = buffered.indexOf('\n');
      while (newline >= 0) {
        lines.push(JSON.parse(buffered.slice(0, newline)) as Line);
        buffered = buffered.slice(newline + 1);
        newline = buffered.indexOf('\n');
        if (killAfter !== undefined && lines.length === killAfter) child.kill('SIGKILL');
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // a guard against a hang, not a speed claim: a tsx child beside a loaded full run took over 30 s (load ~20)
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    child.on('error', reject);
    child.on('exit', async (code, signal) => {
      clearTimeout(timer);
      await writeFile(join(work.path, `${logName}.stdout.log`), stdout);
      await writeFile(join(work.path, `${logName}.stderr.log`), stderr);
      if (killAfter === undefined && code !== 0) reject(new Error(`child exited ${code}: ${stderr}`));
      else resolve({ lines, signal });
    });
  });
}

const answerOf = (l: Line) => ({ i: l.i, kind: l.kind, text: l.text, finishReason: l.finishReason, usage: l.usage });

describe('kill and resume', () => {
  it('repeats no request for trials already answered, and ends identical to an uninterrupted run', async () => {
    const cacheDir = join(work.path, 'cache');
    const killed = await runChild(cacheDir, 'run1', KILL_AFTER);
    expect(killed.signal).toBe('SIGKILL');
    expect(killed.lines.length).toBeGreaterThanOrEqual(KILL_AFTER);
    expect(killed.lines.length).toBeLessThan(TRIALS);
    const doneKeys = new Set(killed.lines.map((l) => l.key));
    const run1Requests = server.log.length;

    const resumed = await runChild(cacheDir, 'run2');
    const run2Log = server.log.slice(run1Requests);
    expect(resumed.lines).toHaveLength(TRIALS);
    expect(run2Log.filter((r) => doneKeys.has(r.trialKey))).toEqual([]);
    for (const line of resumed.lines) expect(line.cacheHit).toBe(doneKeys.has(line.key));
    // any repeat at all is a trial the server answered just as run 1 was killed, before its cache entry
    const repeated = new Set(server.log.filter((r) => r.repeat).map((r) => r.trialKey));
    expect([...repeated].filter((k) => doneKeys.has(k))).toEqual([]);
    expect(repeated.size).toBeLessThanOrEqual(1);
    // 12 distinct trials (4 prompts × 3 replicates), each requested once overall (up to that one race)
    expect(new Set(resumed.lines.map((l) => l.key)).size).toBe(TRIALS);
    expect(server.log.length).toBeLessThanOrEqual(TRIALS + 1);

    const uninterrupted = await runChild(join(work.path, 'cache-fresh'), 'run3');
    expect(resumed.lines.map(answerOf)).toEqual(uninterrupted.lines.map(answerOf));
    expect(new Set(uninterrupted.lines.map((l) => l.text)).size).toBeGreaterThan(4); // replicates differ

    // the sentinel key is in no written file: caches, child logs
    expect(await filesContaining(work.path, SENTINEL_API_KEY)).toEqual([]);
  });

  it('two processes sharing one cache directory both finish with valid entries and the same answers', async () => {
    const cacheDir = join(work.path, 'cache-shared');
    const [a, b] = await Promise.all([runChild(cacheDir, 'shared-a'), runChild(cacheDir, 'shared-b')]);
    expect(a.lines.map(answerOf)).toEqual(b.lines.map(answerOf));
    const files = (await filesUnder(cacheDir)).filter((f) => f.endsWith('.json'));
    expect(files).toHaveLength(TRIALS);
    for (const file of files) {
      expect(cacheEntrySchema.safeParse(JSON.parse(await readFile(file, 'utf8'))).success).toBe(true);
    }
    expect(await filesContaining(work.path, SENTINEL_API_KEY)).toEqual([]);
  });
});
