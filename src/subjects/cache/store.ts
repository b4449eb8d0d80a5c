import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { type CacheEntry, cacheEntrySchema } from './entry.js';

export const CACHE_MODES = ['read-write', 'read-only', 'off', 'refresh'] as const;
export type CacheMode = (typeof CACHE_MODES)[number];

export const DEFAULT_CACHE_DIR = '.ceilingbench/cache';

/** Receives cache problems (corrupt entries, failed writes); they never stop a run. */
export type CacheReporter = (message: string) => void;

const defaultReporter: CacheReporter = (message) => process.emitWarning(message, 'CeilingbenchCacheWarning');

let tempCounter = 0;

/**
 * The on-disk response cache: one JSON file per trial at `<dir>/<key[0:2]>/<key>.json`.
 * Writes go to a temp file in the same directory, then `rename` (atomic on POSIX), so a reader in any
 * process sees either no entry or a whole one; concurrent writers of one key both write valid entries.
 * Entries read back are zod-validated and must carry their own key; anything else is a miss, reported.
 * Only successful answers are stored (callers never pass errors), and entries hold no keys or headers.
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

  pathOf(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    if (!this.readable) return undefined;
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
