import type OpenAI from 'openai';
import { toFile } from 'openai';
import { type BilledTokens, billedTokens } from '../../spend/price.js';
import { answerDetails, CACHE_FORMAT, type CacheEntry } from '../cache/entry.js';
import { trialIdentity } from '../cache/key.js';
import type { ResponseCache } from '../cache/store.js';
import type { TrialRequest } from '../subject.js';
import {
  BATCH_ENDPOINT,
  type BatchLine,
  type BatchResult,
  chunkLines,
  OPENAI_BATCH_LIMITS,
  readResultLines,
} from './batch-files.js';
import { type BatchRecord, readBatchState, TERMINAL_STATUSES, writeBatchState } from './batch-state.js';
import { createCacheStep, foreignField } from './cache-step.js';
import { type Env, resolveEndpoint } from './endpoint.js';
import { requestHeaders } from './headers.js';
import { createChatClient } from './request.js';
import { buildMessages, buildParams, type ChatMessage, type ProviderOptions } from './request-body.js';

/**
 * `ceilingbench run --batch` for an openai subject, before the Vitest run (src/cli/commands/run-batch.ts): the trials
 * the selected cells will ask are answered through the provider's batch API, and each answer is written into the
 * response cache as a live answer is (the same key, the same request identity), so that the Vitest run that follows
 * finds every answered trial in the cache and grades, gates and reports it as it would a live one.
 *
 * 1. batches a former process submitted (batches.json beside the cache) are picked up: an upload whose batch is not
 *    recorded is looked for among the provider's batches by its file id (the process died between the two), and a
 *    batch is created only when none has it;
 * 2. the trials neither cached nor in such a batch are submitted (those a spending limit does not admit are held
 *    back), in files within the provider's limits and `size`;
 * 3. every batch is polled until it ends, then its output and error files are read: answers into the cache, failed
 *    requests into batches.json with the provider's reason (the Vitest run makes them `api`, never a model failure).
 * A request failed by a batch collected in an earlier process is submitted again; one failed in this process is not.
 */

export interface BatchRunOptions extends ProviderOptions {
  model: string;
  baseURL?: string;
  apiKey?: string;
  env?: Env;
  headers?: Record<string, string>;
  /** The response cache the answers go to; batches.json is kept in its directory. */
  cache: ResponseCache;
  /** The trials the run will ask, as the sweep asks them (no signal). */
  trials: readonly TrialRequest[];
  /** Requests per batch (default, and at most, OPENAI_BATCH_LIMITS.requests). */
  size?: number;
  /** Seconds between polls (default 60). */
  pollSeconds?: number;
  /**
   * How long to wait for the batches (default: until every one has ended). Past it the pass returns; the batches
   * still running stay recorded, their trials are missing data in this run, and the next run collects them.
   * 0: submit, look once, and return (a CI job that submits, and a later one that collects).
   */
  waitMinutes?: number;
  now?: () => number;
  /** The provider's per-file limits (default OpenAI's). */
  limits?: { requests: number; bytes: number };
  /** Whether a request may be submitted: undefined = yes, else why not (a spending limit: outcome `budget`). */
  admit?: (request: TrialRequest, messages: ChatMessage[]) => string | undefined;
  /** A progress line (batch states and counts). */
  progress?: (line: string) => void;
  fetch?: typeof globalThis.fetch;
  sleep?: (ms: number) => Promise<void>;
  /** Timeout of one API call to the file and batch endpoints (default 300 000 ms). */
  requestTimeoutMs?: number;
}

export interface BatchRunSummary {
  trials: number;
  /** Trials the cache answered before anything was submitted. */
  cached: number;
  /** Requests submitted by this process. */
  submitted: number;
  /** Batches of earlier processes picked up. */
  resumed: number;
  /** Batches created by this process. */
  created: number;
  /** Answers written into the cache. */
  answered: number;
  /** Requests of the run that a batch failed (outcome `api`). */
  failed: number;
  /** Requests not submitted (a spending limit): outcome `budget`. */
  held: number;
  /** Requests of the run still in batches at the provider when the wait (`waitMinutes`) ended. */
  running: number;
  /** The tokens the answers reported, summed as they are billed (spend/price.ts billedTokens). */
  billed: BilledTokens;
}

interface Planned {
  request: TrialRequest;
  line: BatchLine;
}

/** A fault asking again can clear: no connection, a timeout, a 429, a 5xx. */
function isPassing(error: unknown): boolean {
  const status = (error as { status?: unknown }).status;
  if (typeof status === 'number') return status === 429 || status >= 500;
  return ['APIConnectionError', 'APIConnectionTimeoutError'].includes((error as Error)?.name ?? '');
}

const isTerminal = (status: string) => (TERMINAL_STATUSES as readonly string[]).includes(status);

export async function runBatches(options: BatchRunOptions): Promise<BatchRunSummary> {
  const endpoint = resolveEndpoint(options);
  const client = createChatClient(
    endpoint,
    requestHeaders(options.headers),
    options.requestTimeoutMs ?? 300_000,
    // Node's own fetch: the upload is multipart, whose FormData the transport's undici copy does not encode; these
    // calls are short, so its default timeouts do not matter here
    options.fetch ?? globalThis.fetch,
  );
  const { cache } = options;
  const say = options.progress ?? (() => undefined);
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const pollMs = Math.max(0, (options.pollSeconds ?? 60) * 1000);
  const now = options.now ?? Date.now;
  // past it, the batches still running are left to the next run (they stay in batches.json)
  const deadline = options.waitMinutes === undefined ? Number.POSITIVE_INFINITY : now() + options.waitMinutes * 60_000;
  const limits = options.limits ?? OPENAI_BATCH_LIMITS;
  const size = Math.min(options.size ?? limits.requests, limits.requests);
  const step = createCacheStep({ endpoint: endpoint.identity, model: options.model });
  const state = await readBatchState(cache.dir);
  const save = () => writeBatchState(cache.dir, state);
  const mine = (record: BatchRecord) => record.endpoint === endpoint.identity && record.model === options.model;
  const summary: BatchRunSummary = {
    trials: options.trials.length,
    cached: 0,
    submitted: 0,
    resumed: 0,
    created: 0,
    answered: 0,
    failed: 0,
    held: 0,
    running: 0,
    billed: { prompt: 0, cachedPrompt: 0, completion: 0, reasoning: 0 },
  };

  // the trials as the live subject sends them: its messages, its configured parameters, its key
  const planned = new Map<string, Planned>();
  for (const request of options.trials) {
    const messages = buildMessages(request.prompt, options.systemRole);
    const params = buildParams(options, endpoint.identity, request.maxOutputTokens);
    const key = step.keyOf(request, { messages, params });
    planned.set(key, { request, line: { key, model: options.model, messages, params } });
  }
  const answeredInCache = async (key: string, item: Planned): Promise<boolean> => {
    const entry = await cache.get(key);
    return (
      entry !== undefined &&
      foreignField(entry, item.request, { endpoint: endpoint.identity, model: options.model }, item.line.params) ===
        undefined
    );
  };

  /** Writes a batch's results: answers into the cache (as live ones), failures into the state. */
  const collect = async (record: BatchRecord, batch: OpenAI.Batches.Batch): Promise<void> => {
    const results: BatchResult[] = [];
    for (const fileId of [batch.output_file_id, batch.error_file_id]) {
      if (!fileId) continue;
      const response = await client.files.content(fileId);
      results.push(...readResultLines(await response.text()));
    }
    const byKey = new Map(results.map((r) => [r.key, r]));
    const latencyMs = Math.max(0, ((batch.completed_at ?? batch.created_at) - batch.created_at) * 1000);
    const batchWhy = batch.errors?.data?.map((e) => `${e.code ?? 'error'}: ${e.message ?? ''}`).join('; ');
    for (const { key, meta } of record.requests) {
      const result = byKey.get(key);
      if (result?.ok) {
        const c = result.completion;
        const entry: CacheEntry = {
          format: CACHE_FORMAT,
          key,
          meta,
          response: {
            text: c.text,
            ...answerDetails(c),
            finishReason: c.finishReason,
            usage: c.usage,
            latencyMs,
            attempts: 1,
            batch: batch.id,
          },
        };
        await cache.put(entry);
        delete state.failed[key];
        summary.answered++;
        if (c.usage) {
          const billed = billedTokens(c.usage);
          for (const field of ['prompt', 'cachedPrompt', 'completion', 'reasoning'] as const)
            summary.billed[field] += billed[field];
        }
        continue;
      }
      const reason = result
        ? result.reason
        : `batch ${batch.status}${batchWhy ? ` (${batchWhy})` : ''}: no result for this request`;
      state.failed[key] = { reason, batchId: batch.id };
    }
    record.collected = true;
    record.lastPass = true;
    // read once: its answers are in the cache, its failures in `failed`; the record stays as the batch's history
    record.requests = [];
    await save();
  };

  /** Polls the batches until each has ended, collecting each as it ends; a progress line per round. */
  const settle = async (records: BatchRecord[]): Promise<void> => {
    let open = records.filter((r) => !r.collected);
    for (let first = true; open.length > 0 && (first || now() < deadline); first = false) {
      for (const record of open) {
        let batch: OpenAI.Batches.Batch;
        try {
          batch = await client.batches.retrieve(record.batchId as string);
        } catch (error) {
          // a poll over hours meets the provider's passing faults: the next round asks again
          if (!isPassing(error)) throw error;
          say(`batch: polling ${record.batchId} failed (${(error as Error).message}); asking again at the next poll`);
          continue;
        }
        record.status = batch.status;
        if (batch.request_counts) record.counts = batch.request_counts;
        if (isTerminal(batch.status)) await collect(record, batch);
      }
      await save();
      say(progressLine(records));
      open = open.filter((r) => !r.collected);
      if (open.length > 0 && now() < deadline) await sleep(Math.min(pollMs, Math.max(0, deadline - now())));
    }
  };

  /** Creates the batch of an uploaded file, unless the provider already has one for it (a process died in between). */
  const ensureBatch = async (record: BatchRecord): Promise<void> => {
    if (record.batchId !== undefined) return;
    // newest first: back to an hour before the upload, at most
    try {
      for await (const batch of client.batches.list({ limit: 100 })) {
        if (batch.created_at * 1000 < record.submittedAt - 3_600_000) break;
        if (batch.input_file_id === record.fileId) {
          record.batchId = batch.id;
          record.status = batch.status;
          await save();
          return;
        }
      }
    } catch (error) {
      // an endpoint that lists no batches: its requests may be submitted twice if an earlier process did create one
      say(
        `batch: cannot list the endpoint's batches (${(error as Error).message}); creating the batch of ${record.fileId}`,
      );
    }
    const batch = await client.batches.create({
      input_file_id: record.fileId,
      endpoint: BATCH_ENDPOINT,
      completion_window: '24h',
      metadata: { source: 'ceilingbench' },
    });
    record.batchId = batch.id;
    record.status = batch.status;
    summary.created++;
    await save();
  };

  // 0. what the last pass collected is paid for: the runs after it read those answers from the cache
  for (const record of state.batches) if (mine(record)) delete record.lastPass;
  // 1. what earlier processes submitted; failures of batches collected before are retried below, not these
  const pending = state.batches.filter((r) => mine(r) && !r.collected);
  const pendingKeys = pending.flatMap((r) => r.requests.map((q) => q.key));
  summary.resumed = pending.length;
  for (const record of pending) await ensureBatch(record);
  if (pending.length > 0) say(`batch: picking up ${pending.length} batch(es) submitted earlier`);
  await settle(pending);
  const failedNow = new Set(pendingKeys.filter((k) => state.failed[k]));
  // still at the provider past the wait: never submitted again
  const stillRunning = new Set(
    state.batches.filter((r) => mine(r) && !r.collected).flatMap((r) => r.requests.map((q) => q.key)),
  );

  // 2. what is missing: neither cached nor failed by a batch collected in this process
  const missing: Planned[] = [];
  for (const [key, item] of planned) {
    if (await answeredInCache(key, item)) {
      summary.cached++;
      continue;
    }
    if (failedNow.has(key) || stillRunning.has(key)) continue;
    missing.push(item);
  }
  // this subject's trials only: another subject's held trials are its own (one state file per cache)
  for (const key of planned.keys()) delete state.held[key];
  const admitted: Planned[] = [];
  for (const item of missing) {
    const held = options.admit?.(item.request, item.line.messages);
    if (held === undefined) admitted.push(item);
    else state.held[item.line.key] = held;
  }
  summary.held = [...planned.keys()].filter((key) => state.held[key] !== undefined).length;
  await save();

  // 3. submit, poll, collect
  const records: BatchRecord[] = [];
  for (const file of chunkLines(
    admitted.map((a) => a.line),
    size,
    limits.bytes,
  )) {
    const uploaded = await client.files.create({
      file: await toFile(Buffer.from(file.text, 'utf8'), 'ceilingbench-batch.jsonl', { type: 'application/jsonl' }),
      purpose: 'batch',
    });
    const record: BatchRecord = {
      fileId: uploaded.id,
      endpoint: endpoint.identity,
      model: options.model,
      status: 'uploaded',
      collected: false,
      submittedAt: Date.now(),
      requests: file.lines.map((line) => ({
        key: line.key,
        meta: {
          endpoint: endpoint.identity,
          model: options.model,
          ...trialIdentity((planned.get(line.key) as Planned).request),
          params: line.params,
        },
      })),
    };
    state.batches.push(record);
    await save();
    await ensureBatch(record);
    records.push(record);
    summary.submitted += file.lines.length;
    say(`batch: submitted ${record.batchId} (${file.lines.length} requests)`);
  }
  await settle(records);
  for (const key of planned.keys()) if (state.failed[key]) summary.failed++;
  const running = state.batches.filter((r) => mine(r) && !r.collected);
  summary.running = running.flatMap((r) => r.requests).filter((q) => planned.has(q.key)).length;
  return summary;
}

/** `batch: 3 batch(es) — completed 2, in_progress 1; requests 1200 of 1400 done, 3 failed`. */
export function progressLine(records: readonly BatchRecord[]): string {
  const states = new Map<string, number>();
  let total = 0;
  let done = 0;
  let failed = 0;
  for (const record of records) {
    states.set(record.status, (states.get(record.status) ?? 0) + 1);
    total += record.counts?.total ?? record.requests.length;
    done += record.counts?.completed ?? 0;
    failed += record.counts?.failed ?? 0;
  }
  const parts = [...states].map(([status, n]) => `${status} ${n}`).join(', ');
  return `batch: ${records.length} batch(es) — ${parts}; requests ${done + failed} of ${total} done, ${failed} failed`;
}
