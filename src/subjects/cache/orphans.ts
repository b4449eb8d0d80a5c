import { readdir, readFile, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { cacheEntrySchema } from './entry.js';

/** A temp file younger than this may belong to a live writer (its write and rename take milliseconds). */
export const ORPHAN_AGE_MS = 10 * 60_000;

/** `<key>.json.<pid>-<thread>-<n>.tmp`, the name ResponseCache.put writes before its rename. */
const TEMP = /^([0-9a-f]{64})\.json\.[0-9]+-[0-9]+-[0-9]+\.tmp$/;

export interface OrphanSweep {
  /** Complete, valid entries whose final file was missing: renamed into place. */
  adopted: number;
  /** Partial or superseded temp files: deleted. */
  removed: number;
}

const missing = async (path: string): Promise<boolean> =>
  stat(path).then(
    () => false,
    (error: NodeJS.ErrnoException) => error.code === 'ENOENT',
  );

/** The whole entry the temp file holds, when it is one (written to the end, valid, for the key it is named by). */
async function completeEntry(path: string, key: string): Promise<boolean> {
  try {
    const parsed = cacheEntrySchema.safeParse(JSON.parse(await readFile(path, 'utf8')));
    return parsed.success && parsed.data.key === key;
  } catch {
    return false;
  }
}

/**
 * The temp files a process killed between its write and its rename left in the cache directory, older than
 * ORPHAN_AGE_MS (a fresh one may be a live writer's, and is never touched). One that holds a complete, valid
 * entry for its key while the entry's file is missing is adopted — renamed into place: it is an answer paid
 * for. Any other (cut short, or its entry written since) is deleted. Names other than put's temp names are never
 * touched. Never throws: a file another sweeper took first, or an unreadable folder, is skipped.
 */
export async function sweepOrphans(dir: string, now = Date.now()): Promise<OrphanSweep> {
  const result: OrphanSweep = { adopted: 0, removed: 0 };
  let shards: string[];
  try {
    shards = (await readdir(dir, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
  } catch {
    return result;
  }
  for (const shard of shards) {
    const folder = join(dir, shard);
    const names = await readdir(folder).catch(() => [] as string[]);
    for (const name of names) {
      const match = TEMP.exec(name);
      if (!match) continue;
      const path = join(folder, name);
      try {
        if (now - (await stat(path)).mtimeMs < ORPHAN_AGE_MS) continue;
        const final = join(folder, `${match[1]}.json`);
        if ((await missing(final)) && (await completeEntry(path, match[1]))) {
          await rename(path, final);
          result.adopted++;
        } else {
          await unlink(path);
          result.removed++;
        }
      } catch {
        // gone already (another process swept it), or not ours to touch: leave it
      }
    }
  }
  return result;
}
