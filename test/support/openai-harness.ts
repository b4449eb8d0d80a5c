import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PyRandom } from '../../src/rng/index.js';
import { ResponseCache } from '../../src/subjects/cache/store.js';
import { createOpenAiSubject, type OpenAiSubjectOptions } from '../../src/subjects/openai/openai-subject.js';
import type { RetryPolicy } from '../../src/subjects/openai/retry.js';
import type { Subject, TrialRequest } from '../../src/subjects/subject.js';
import type { AnyTaskPlugin } from '../../src/tasks/task.js';
import { fakeStepsPlugin } from './fake-tasks.js';

/** A key that must never reach disk. */
export const SENTINEL_API_KEY = 'sk-ceilingbench-SENTINEL-7f3a9c';

/** Millisecond-scale backoffs and timeouts, so fault tests take well under a second each. */
export const FAST_RETRY: RetryPolicy = {
  maxAttempts: 5,
  baseDelayMs: 2,
  maxDelayMs: 20,
  maxTotalMs: 5_000,
  requestTimeoutMs: 3_000,
  retryMaxMs: 300,
};

export const steps: AnyTaskPlugin = fakeStepsPlugin;

export function stepsRequest(level: number, seed: number, trialIndex: number, maxOutputTokens?: number): TrialRequest {
  const instance = steps.generate(new PyRandom(seed), level, { seed });
  return {
    taskId: steps.id,
    instance,
    prompt: steps.render(instance),
    trialIndex,
    maxOutputTokens: maxOutputTokens ?? steps.maxOutputTokens(level),
  };
}

export function loopbackSubject(
  baseURL: string,
  extra: Partial<OpenAiSubjectOptions> & { cacheDir?: string; cacheMode?: ResponseCache['mode'] } = {},
): Subject {
  const { cacheDir, cacheMode, ...rest } = extra;
  return createOpenAiSubject({
    model: 'loop-model',
    baseURL,
    apiKey: SENTINEL_API_KEY,
    retry: FAST_RETRY,
    limiter: { concurrency: 16 },
    cache: cacheDir ? new ResponseCache(cacheDir, cacheMode ?? 'read-write', () => undefined) : undefined,
    ...rest,
  });
}

export async function tempDir(prefix: string): Promise<{ path: string; remove: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/** Every regular file under `dir`, recursively. */
export async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(path)));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

/** Files under `dir` whose bytes contain `needle`. */
export async function filesContaining(dir: string, needle: string): Promise<string[]> {
  const hits: string[] = [];
  for (const file of await filesUnder(dir)) if ((await readFile(file, 'latin1')).includes(needle)) hits.push(file);
  return hits;
}
