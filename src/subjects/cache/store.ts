import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { threadId } from 'node:worker_threads';
import { type CacheEntry, cacheEntrySchema } from './entry.js';
import { type OrphanSweep, sweepOrphans } from './orphans.js';

export const CACHE_MODES = ['read-write', 'read-only', 'off', 'refresh'] as const;
export type CacheMode = (typeof CACHE_MODES)[number];

export const DEFAULT_CACHE_DIR = '.ceilingbench/cache';

/** Receives cache problems (corrupt entries, failed writes); they never stop a run. */
export type CacheReporter = (message: string) => void;

const defaultReporter: CacheReporter = (message) => process.emitWarning(message, 'CeilingbenchCacheWarning');

let tempCounter = 0;

/** The orphan sweep of each cache directory this process (this worker) has used, run once. */
const sweeps = new Map<string, Promise<OrphanSweep>>();

/**
 * The on-disk response cache: one JSON file per trial at `<dir>/<key[0:2]>/<key>.json`.
 * Writes go to a temp file in the same directory, then `rename` (atomic on POSIX), so a reader in any
 * process sees either no entry or a whole one; concurrent writers of one key both write valid entries.
 * Entries read back are zod-validated and must carry their own key; anything else is a miss, reported.
 * Only successful answers are stored (callers never pass errors), and entries hold no keys or headers.
 * A writable cache's first use in a process sweeps the temp files an interrupted run left (orphans.ts).
 */
export class ResponseCache {
  constructor(
    readonly dir: string,
    readonly mode: CacheMode = 'read-write',
    private readonly report: CacheReporter = defaultReporter,
  ) {}

  get readable(): boolean {
    return this.mode === 'read-write' || this.mode === 'read-only';
  }

  get writable(): boolean {
    return this.mode === 'read-write' || this.mode === 'refresh';
  }

  /** Says a cache problem through this cache's reporter (an entry that belongs to another request). */
  warn(message: string): void {
    this.report(message);
  }

  pathOf(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  /**
   * The orphan temp files of this directory adopted or removed, once per process and directory (a read-only cache
   * changes nothing on disk, so it never sweeps). get and put wait for it: an adopted entry is then a hit.
   */
  sweep(): Promise<OrphanSweep> {
    if (!this.writable) return Promise.resolve({ adopted: 0, removed: 0 });
    const dir = resolve(this.dir);
    let sweep = sweeps.get(dir);
    if (sweep === undefined) {
      sweep = sweepOrphans(dir).then((done) => {
        if (done.adopted + done.removed > 0)
          this.report(
            `cache: an interrupted run left temp files in ${dir}: ${done.adopted} complete entries adopted, ${done.removed} partial ones removed`,
          );
        return done;
      });
      sweeps.set(dir, sweep);
    }
    return sweep;
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    if (!this.readable) return undefined;
    await this.sweep();
    const path = this.pathOf(key);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        this.report(`cache: cannot read ${path}: ${String(error)}`);
      return undefined;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      this.report(`cache: corrupt entry ${path} (not JSON); treating it as a miss`);
      return undefined;
    }
    const parsed = cacheEntrySchema.safeParse(json);
    if (!parsed.success) {
      this.report(`cache: invalid entry ${path} (${parsed.error.issues[0]?.message}); treating it as a miss`);
      return undefined;
    }
    if (parsed.data.key !== key) {
      this.report(`cache: entry ${path} holds key ${parsed.data.key}; treating it as a miss`);
      return undefined;
    }
    return parsed.data;
  }

  async put(entry: CacheEntry): Promise<void> {
    if (!this.writable) return;
    await this.sweep();
    const path = this.pathOf(entry.key);
    const temp = `${path}.${process.pid}-${threadId}-${tempCounter++}.tmp`;
    try {
      await mkdir(join(this.dir, entry.key.slice(0, 2)), { recursive: true });
      await writeFile(temp, `${JSON.stringify(cacheEntrySchema.parse(entry))}\n`, 'utf8');
      await rename(temp, path);
    } catch (error) {
      this.report(`cache: cannot write ${path}: ${String(error)}; the answer is kept but not cached`);
      await unlink(temp).catch(() => undefined);
    }
  }
}
