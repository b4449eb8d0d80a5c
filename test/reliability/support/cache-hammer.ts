/**
 * Child process of the shared-cache test: writes and reads the same cache keys as its sibling, as fast as
 * it can. Every entry of key k written by writer w holds a text that identifies (k, w) and is large enough
 * (64–192 KB) that a non-atomic write would be seen half-done. Prints one JSON summary line.
 * Args: <cacheDir> <writerId> <keys> <rounds>; HAMMER_NAIVE=1 replaces the atomic put by an in-place write (control).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { CACHE_FORMAT, type CacheEntry } from '../../../src/subjects/cache/entry.js';
import { sha256 } from '../../../src/subjects/cache/key.js';
import { ResponseCache } from '../../../src/subjects/cache/store.js';

const [dir, writer, keysArg, roundsArg] = process.argv.slice(2);
const keys = Number(keysArg);
const rounds = Number(roundsArg);

export const keyOf = (k: number): string => sha256(`shared-cache-key-${k}`);

/** The entry writer `w` writes for key number `k` (the parent rebuilds it to check what it reads). */
export function entryFor(k: number, w: string): CacheEntry {
  const size = 64 * 1024 * (1 + (k % 3));
  const text = `writer ${w} key ${k} `.padEnd(size, w === 'A' ? 'a' : 'b');
  return {
    format: CACHE_FORMAT,
    key: keyOf(k),
    meta: {
      endpoint: 'http://127.0.0.1:1/v1',
      model: 'shared-cache',
      taskId: 'd2',
      level: 5,
      seed: k,
      instanceProfile: 'official',
      trialIndex: 0,
      promptSha256: sha256(`prompt ${k}`),
      params: { temperature: 0, max_tokens: 1000 },
    },
    response: { text, finishReason: 'stop', usage: null, latencyMs: 1, attempts: 1 },
  };
}

if (dir !== undefined) {
  const problems: string[] = [];
  const cache = new ResponseCache(dir, 'read-write', (message) => problems.push(message));
  // Control (HAMMER_NAIVE=1): write in place, without temp file and rename, as a careless cache would.
  if (process.env.HAMMER_NAIVE === '1') {
    cache.put = async (entry: CacheEntry) => {
      await mkdir(dirname(cache.pathOf(entry.key)), { recursive: true });
      await writeFile(cache.pathOf(entry.key), `${JSON.stringify(entry)}\n`);
    };
  }
  let puts = 0;
  let hits = 0;
  let misses = 0;
  let wrong = 0;
  for (let round = 0; round < rounds; round++) {
    await Promise.all(
      Array.from({ length: keys }, async (_, k) => {
        await cache.put(entryFor(k, writer));
        puts++;
        const other = (k * 7 + round) % keys;
        const read = await cache.get(keyOf(other));
        if (read === undefined) misses++;
        else {
          hits++;
          const text = read.response.text;
          if (text !== entryFor(other, 'A').response.text && text !== entryFor(other, 'B').response.text) wrong++;
        }
      }),
    );
  }
  process.stdout.write(`${JSON.stringify({ writer, puts, hits, misses, wrong, problems })}\n`);
}
