import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { UsageError } from '../../errors.js';
import { cacheMetaSchema } from '../cache/entry.js';

/**
 * What `run --batch` has submitted, kept in `batches.json` beside the response cache (in its directory), so that a
 * later process (another CI job, the next day) picks up the batches already submitted instead of submitting them
 * again. Written whole to a temp file and renamed (atomic), after every upload and every batch created, so a process
 * killed at any point leaves a readable file that names every batch it submitted — an upload without a batch is
 * looked for among the provider's batches by its file id before a batch is created for it (batch-run.ts).
 */

export const BATCH_STATE_FORMAT = 'ceilingbench-batches/1';
export const BATCH_STATE_FILE = 'batches.json';

/** Statuses after which a batch changes no more (OpenAI's). */
export const TERMINAL_STATUSES = ['completed', 'failed', 'expired', 'cancelled'] as const;

/** One request of a batch: its cache key (the line's custom_id) and what its cache entry records besides the answer. */
const batchRequestSchema = z.object({
  key: z.string().regex(/^[0-9a-f]{64}$/),
  meta: cacheMetaSchema,
});
export type BatchRequest = z.infer<typeof batchRequestSchema>;

const batchRecordSchema = z.object({
  /** The uploaded JSONL file. */
  fileId: z.string(),
  /** The batch, once created (absent: uploaded, creation not yet known to have happened). */
  batchId: z.string().optional(),
  endpoint: z.string(),
  model: z.string(),
  /** The provider's last status ('uploaded' before the batch exists). */
  status: z.string(),
  /** The results were read and written into the cache (a collected batch is never read again; its `requests` are dropped). */
  collected: z.boolean(),
  /** ms since the epoch. */
  submittedAt: z.number(),
  requests: z.array(batchRequestSchema),
  counts: z.object({ total: z.number(), completed: z.number(), failed: z.number() }).optional(),
  /**
   * Collected by the last `run --batch` pass of its endpoint and model: the run that followed paid for its answers in
   * that pass (its report counts them paid, at the batch price, not as cache hits). The next pass clears it.
   */
  lastPass: z.boolean().optional(),
});
export type BatchRecord = z.infer<typeof batchRecordSchema>;

export const batchStateSchema = z.object({
  format: z.literal(BATCH_STATE_FORMAT),
  batches: z.array(batchRecordSchema),
  /** Requests a batch returned no answer for, by cache key: the provider's reason (outcome `api`). */
  failed: z.record(z.string(), z.object({ reason: z.string(), batchId: z.string() })),
  /** Requests the last `run --batch` did not submit (a spending limit), by cache key: why (outcome `budget`). */
  held: z.record(z.string(), z.string()),
});
export type BatchState = z.infer<typeof batchStateSchema>;

export const emptyBatchState = (): BatchState => ({ format: BATCH_STATE_FORMAT, batches: [], failed: {}, held: {} });

export const batchStatePath = (cacheDir: string): string => join(cacheDir, BATCH_STATE_FILE);

/** The state file of a cache directory; none yet: an empty state. A file that does not read is a usage error. */
export async function readBatchState(cacheDir: string): Promise<BatchState> {
  const path = batchStatePath(cacheDir);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyBatchState();
    throw error;
  }
  let parsed: ReturnType<typeof batchStateSchema.safeParse>;
  try {
    parsed = batchStateSchema.safeParse(JSON.parse(text));
  } catch {
    throw new UsageError(`${path} is not JSON: it lists the batches submitted; restore it or remove it to start over`);
  }
  if (!parsed.success)
    throw new UsageError(
      `${path} is not a ceilingbench batch list (${parsed.error.issues[0]?.message}); restore it or remove it to start over`,
    );
  return parsed.data;
}

let writes = 0;

export async function writeBatchState(cacheDir: string, state: BatchState): Promise<void> {
  const path = batchStatePath(cacheDir);
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}-${writes++}.tmp`;
  await writeFile(temp, `${JSON.stringify(batchStateSchema.parse(state))}\n`, 'utf8');
  await rename(temp, path);
}

/**
 * What a batch-mode subject answers for a request the cache does not hold (openai-subject.ts): the provider's reason
 * when a batch failed it (`api`), why it was held back (`budget`), or that no batch answered it (`api`).
 */
export const BATCH_ABSENT =
  'batch mode: no batch answered this request (not submitted, or its batch is not collected yet): run `ceilingbench run --batch` again';

export type BatchMiss = { kind: 'failed'; reason: string } | { kind: 'held'; reason: string } | { kind: 'absent' };

export function batchMiss(state: BatchState, key: string): BatchMiss {
  const running = state.batches.find((r) => !r.collected && r.requests.some((q) => q.key === key));
  if (running)
    return {
      kind: 'failed',
      reason: `batch ${running.batchId ?? running.fileId} is still ${running.status} at the provider: run \`ceilingbench run --batch\` again to collect it`,
    };
  const failed = state.failed[key];
  if (failed) return { kind: 'failed', reason: `batch ${failed.batchId}: ${failed.reason}` };
  const held = state.held[key];
  if (held) return { kind: 'held', reason: held };
  return { kind: 'absent' };
}
