import { open, stat } from 'node:fs/promises';
import { UsageError } from '../../errors.js';
import { CACHE_FORMAT } from '../cache/entry.js';
import type { CacheReporter } from '../cache/store.js';
import type { Subject } from '../subject.js';
import { createOwnReplaySubject } from './own-format.js';
import { createSccLogReplaySubject } from './scc-log.js';

export type ReplayFormat = 'cache-dir' | 'cache-jsonl' | 'scc-log';

/** Bytes read to classify a JSONL file by its first record. */
const SNIFF_BYTES = 64 * 1024;

/** A directory is a ceilingbench cache; a JSONL file is ours if its first record says so, SCC's if it has SCC fields. */
export async function detectReplayFormat(path: string): Promise<ReplayFormat> {
  const info = await stat(path).catch(() => undefined);
  if (!info) throw new UsageError(`replay: '${path}' does not exist; give a cache directory or a .jsonl log`);
  if (info.isDirectory()) return 'cache-dir';
  const handle = await open(path, 'r');
  let head: string;
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    head = buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
  const firstLine = head.split('\n').find((line) => line.trim() !== '') ?? '';
  let record: unknown;
  try {
    record = JSON.parse(firstLine);
  } catch {
    throw new UsageError(`replay: the first record of '${path}' is not JSON; give a ceilingbench cache or an SCC log`);
  }
  if (typeof record === 'object' && record !== null) {
    if ((record as { format?: unknown }).format === CACHE_FORMAT) return 'cache-jsonl';
    if ('raw_response' in record && 'evaluation_index' in record) return 'scc-log';
  }
  throw new UsageError(`replay: '${path}' is neither a ceilingbench cache (${CACHE_FORMAT}) nor an SCC log`);
}

/** `replay:<path>[#model]`: our own cache dir or JSONL, or an SCC log via src/subjects/replay/scc-log.ts. */
export async function createReplaySubject(
  path: string,
  model: string | undefined,
  options: { specText: string; report?: CacheReporter },
): Promise<Subject> {
  const format = await detectReplayFormat(path);
  if (format === 'scc-log') {
    return createSccLogReplaySubject(path, model);
  }
  return createOwnReplaySubject(path, { model, isDirectory: format === 'cache-dir', ...options });
}
