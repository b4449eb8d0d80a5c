import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CACHE_FORMAT, type CacheEntry } from '../../src/subjects/cache/entry.js';
import { ORPHAN_AGE_MS, sweepOrphans } from '../../src/subjects/cache/orphans.js';
import { ResponseCache } from '../../src/subjects/cache/store.js';

const dirs: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'cb-orphans-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const keyOf = (n: number): string => n.toString(16).padStart(2, '0').repeat(32);

function entry(key: string, text = 'ANSWER: 1'): CacheEntry {
  return {
    format: CACHE_FORMAT,
    key,
    meta: {
      endpoint: 'http://127.0.0.1:1/v1',
      model: 'm',
      taskId: 'd2',
      level: 5,
      seed: 50001,
      instanceProfile: 'official',
      trialIndex: 0,
      promptSha256: '0'.repeat(64),
      params: { temperature: 0 },
    },
    response: { text, finishReason: 'stop', usage: null, latencyMs: 5, attempts: 1 },
  };
}

/** A temp file named as ResponseCache.put names it, `ageMs` old. */
function temp(dir: string, key: string, content: string, ageMs: number, suffix = '4242-0-0'): string {
  const folder = join(dir, key.slice(0, 2));
  mkdirSync(folder, { recursive: true });
  const path = join(folder, `${key}.json.${suffix}.tmp`);
  writeFileSync(path, content);
  const when = (Date.now() - ageMs) / 1000;
  utimesSync(path, when, when);
  return path;
}

const OLD = ORPHAN_AGE_MS + 60_000;
const whole = (key: string, text?: string) => `${JSON.stringify(entry(key, text))}\n`;

describe('orphan temp files of the response cache', () => {
  it('adopts an old complete entry whose file is missing, removes old partial ones, leaves fresh ones', async () => {
    const dir = tempDir();
    const adoptable = temp(dir, keyOf(1), whole(keyOf(1)), OLD);
    const partial = temp(dir, keyOf(2), whole(keyOf(2)).slice(0, 40), OLD);
    const fresh = temp(dir, keyOf(3), whole(keyOf(3)).slice(0, 40), 1_000); // a live writer's, mid-write
    const wrongKey = temp(dir, keyOf(4), whole(keyOf(5)), OLD); // valid, but not the entry of its name
    const other = join(dir, keyOf(1).slice(0, 2), 'notes.tmp'); // not a name put writes
    writeFileSync(other, 'mine');
    utimesSync(other, 0, 0);

    expect(await sweepOrphans(dir)).toEqual({ adopted: 1, removed: 2 });
    expect(existsSync(adoptable) || existsSync(partial) || existsSync(wrongKey)).toBe(false);
    expect(JSON.parse(readFileSync(join(dir, keyOf(1).slice(0, 2), `${keyOf(1)}.json`), 'utf8'))).toEqual(
      entry(keyOf(1)),
    );
    expect(existsSync(join(dir, keyOf(2).slice(0, 2), `${keyOf(2)}.json`))).toBe(false);
    expect(existsSync(fresh)).toBe(true);
    expect(existsSync(other)).toBe(true);
  });

  it('removes an old complete temp file when its entry was written since (the final file wins)', async () => {
    const dir = tempDir();
    const key = keyOf(6);
    const final = join(dir, key.slice(0, 2), `${key}.json`);
    const orphan = temp(dir, key, whole(key, 'ANSWER: old'), OLD);
    writeFileSync(final, whole(key, 'ANSWER: new'));
    expect(await sweepOrphans(dir)).toEqual({ adopted: 0, removed: 1 });
    expect(existsSync(orphan)).toBe(false);
    expect(JSON.parse(readFileSync(final, 'utf8')).response.text).toBe('ANSWER: new');
  });

  it('a missing or empty directory sweeps nothing', async () => {
    expect(await sweepOrphans(join(tempDir(), 'absent'))).toEqual({ adopted: 0, removed: 0 });
    expect(await sweepOrphans(tempDir())).toEqual({ adopted: 0, removed: 0 });
  });

  it("a writable cache's first get sweeps its directory once, and the adopted entry is a hit", async () => {
    const dir = tempDir();
    temp(dir, keyOf(7), whole(keyOf(7)), OLD);
    temp(dir, keyOf(8), '{"format":', OLD);
    const reports: string[] = [];
    const cache = new ResponseCache(dir, 'read-write', (m) => reports.push(m));
    expect((await cache.get(keyOf(7)))?.response.text).toBe('ANSWER: 1');
    expect(readdirSync(join(dir, keyOf(8).slice(0, 2)))).toEqual([]);
    expect(reports).toEqual([expect.stringMatching(/1 complete entries adopted, 1 partial ones removed/)]);

    // once per process and directory: an orphan appearing later (another cache object, same dir) stays
    const later = temp(dir, keyOf(9), '{', OLD);
    await new ResponseCache(dir, 'read-write', (m) => reports.push(m)).put(entry(keyOf(10)));
    expect(existsSync(later)).toBe(true);
    expect(reports).toHaveLength(1);
  });

  it('a read-only cache never touches the directory', async () => {
    const dir = tempDir();
    const orphan = temp(dir, keyOf(11), whole(keyOf(11)), OLD);
    const cache = new ResponseCache(dir, 'read-only', () => undefined);
    expect(await cache.get(keyOf(11))).toBeUndefined();
    expect(existsSync(orphan)).toBe(true);
  });

  it("put's own temp file of a live write is never swept (it is fresh)", async () => {
    const dir = tempDir();
    const cache = new ResponseCache(dir, 'read-write', () => undefined);
    await Promise.all(Array.from({ length: 8 }, (_, i) => cache.put(entry(keyOf(12), `ANSWER: ${i}`))));
    expect(readdirSync(join(dir, keyOf(12).slice(0, 2)))).toEqual([`${keyOf(12)}.json`]);
  });
});
