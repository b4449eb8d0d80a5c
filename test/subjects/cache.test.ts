import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { CACHE_FORMAT, type CacheEntry } from '../../src/subjects/cache/entry.js';
import { cacheKey, canonicalJson, type KeyMaterial } from '../../src/subjects/cache/key.js';
import { ResponseCache } from '../../src/subjects/cache/store.js';

const dirs: string[] = [];
const tempDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'cb-cache-'));
  dirs.push(dir);
  return dir;
};
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const material: KeyMaterial = {
  endpoint: 'http://127.0.0.1:1/v1',
  model: 'm',
  params: { temperature: 0, max_tokens: 64 },
  messages: [{ role: 'user', content: 'hi' }],
  trialIndex: 0,
  taskId: 'fake-steps',
  level: 3,
  seed: 30001,
  instanceProfile: 'default',
};

function entry(key: string, text = 'ANSWER: 1'): CacheEntry {
  return {
    format: CACHE_FORMAT,
    key,
    meta: {
      endpoint: material.endpoint,
      model: 'm',
      taskId: 'fake-steps',
      level: 3,
      seed: 30001,
      instanceProfile: 'default',
      trialIndex: 0,
      promptSha256: '0'.repeat(64),
      params: material.params,
    },
    response: {
      text,
      finishReason: 'stop',
      usage: { promptTokens: 1, completionTokens: 2 },
      latencyMs: 5,
      attempts: 1,
    },
  };
}

describe('cache key', () => {
  it('is canonical in key order and separates every input, the trial index included', () => {
    const base = cacheKey(material);
    expect(cacheKey({ ...material, params: { max_tokens: 64, temperature: 0 } })).toBe(base);
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    const variants: Partial<KeyMaterial>[] = [
      { trialIndex: 1 },
      { endpoint: 'http://127.0.0.1:2/v1' },
      { model: 'm2' },
      { params: { temperature: 0, max_tokens: 128 } },
      { params: { temperature: 0, max_completion_tokens: 64 } },
      { messages: [{ role: 'user', content: 'hi!' }] },
      { messages: [{ role: 'system', content: 'hi' }] },
      { seed: 30002 },
      { level: 4 },
      { taskId: 'd1' },
    ];
    const keys = new Set([base, ...variants.map((v) => cacheKey({ ...material, ...v }))]);
    expect(keys.size).toBe(variants.length + 1);
  });

  it('canonicalJson ignores key order at every depth', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.oneof(fc.integer(), fc.string(), fc.dictionary(fc.string(), fc.boolean()))),
        (obj) => {
          const reversed = Object.fromEntries(Object.entries(obj).reverse());
          expect(canonicalJson(reversed)).toBe(canonicalJson(obj));
          expect(JSON.parse(canonicalJson(obj))).toEqual(obj);
        },
      ),
    );
  });
});

describe('ResponseCache', () => {
  it('round-trips an entry atomically, leaving no temp files', async () => {
    const dir = await tempDir();
    const cache = new ResponseCache(dir);
    const key = cacheKey(material);
    expect(await cache.get(key)).toBeUndefined();
    await cache.put(entry(key));
    expect(await cache.get(key)).toEqual(entry(key));
    const shard = await readdir(join(dir, key.slice(0, 2)));
    expect(shard).toEqual([`${key}.json`]);
  });

  it('survives concurrent writers of one key (every read sees a whole entry)', async () => {
    const dir = await tempDir();
    const key = cacheKey(material);
    const caches = Array.from({ length: 8 }, () => new ResponseCache(dir));
    await Promise.all(
      caches.flatMap((c, i) => [
        c.put(entry(key, `ANSWER: ${i}`)),
        c.get(key).then((e) => e && expect(e.key).toBe(key)),
      ]),
    );
    expect((await caches[0].get(key))?.response.text).toMatch(/^ANSWER: \d$/);
  });

  it('treats corrupt, invalid and misplaced entries as reported misses, never a crash', async () => {
    const dir = await tempDir();
    const reports: string[] = [];
    const cache = new ResponseCache(dir, 'read-write', (m) => reports.push(m));
    const key = cacheKey(material);
    await cache.put(entry(key));
    const path = cache.pathOf(key);
    await writeFile(path, '{"format": "ceilingbench-cache/1", "key": ');
    expect(await cache.get(key)).toBeUndefined();
    await writeFile(path, JSON.stringify({ ...entry(key), response: { text: 3 } }));
    expect(await cache.get(key)).toBeUndefined();
    await writeFile(path, JSON.stringify(entry('f'.repeat(64))));
    expect(await cache.get(key)).toBeUndefined();
    expect(reports).toHaveLength(3);
    expect(reports[0]).toMatch(/corrupt entry .*\(not JSON\)/);
    await cache.put(entry(key, 'ANSWER: 2')); // a fresh answer overwrites the bad entry
    expect((await cache.get(key))?.response.text).toBe('ANSWER: 2');
  });

  it('honours the modes: read-only never writes, off does nothing, refresh never reads', async () => {
    const dir = await tempDir();
    const key = cacheKey(material);
    await new ResponseCache(dir, 'read-only').put(entry(key));
    expect(await new ResponseCache(dir).get(key)).toBeUndefined();
    await new ResponseCache(dir, 'off').put(entry(key));
    expect(await new ResponseCache(dir).get(key)).toBeUndefined();
    await new ResponseCache(dir, 'refresh').put(entry(key));
    expect(await new ResponseCache(dir, 'refresh').get(key)).toBeUndefined();
    expect(await new ResponseCache(dir, 'read-only').get(key)).toEqual(entry(key));
    expect(await new ResponseCache(dir, 'off').get(key)).toBeUndefined();
    expect(JSON.parse(await readFile(new ResponseCache(dir).pathOf(key), 'utf8')).key).toBe(key);
  });
});
