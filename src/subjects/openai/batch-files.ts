import { type Completion, readCompletion } from './completion.js';
import { errorEnvelope } from './error-body.js';
import type { ChatMessage, ParamValue } from './request-body.js';

/**
 * The files of OpenAI's batch API: the JSONL input (one `POST /v1/chat/completions` line per request, its body the
 * one a live request sends, its `custom_id` the trial's cache key) cut into files within the provider's limits, and
 * the output and error files read back into answers and failures by `custom_id` (in whatever order they come).
 */

/** OpenAI's limits per input file (docs/providers.md): 50 000 requests, 200 MB. */
export const OPENAI_BATCH_LIMITS = { requests: 50_000, bytes: 200 * 1024 * 1024 } as const;

export const BATCH_ENDPOINT = '/v1/chat/completions';

export interface BatchLine {
  key: string;
  model: string;
  messages: ChatMessage[];
  /** The body's other fields, the output budget included (request-body.ts buildParams). */
  params: Record<string, ParamValue>;
}

/** One JSONL line: the live request's body (model, messages, parameters) under the trial's key. */
export const jsonlLine = (line: BatchLine): string =>
  JSON.stringify({
    custom_id: line.key,
    method: 'POST',
    url: BATCH_ENDPOINT,
    body: { model: line.model, messages: line.messages, ...line.params },
  });

/**
 * The lines cut into files of at most `maxRequests` lines and `maxBytes` bytes (newlines included), in order. A line
 * alone over `maxBytes` cannot be batched: an error naming its key.
 */
export function chunkLines(
  lines: readonly BatchLine[],
  maxRequests: number,
  maxBytes: number,
): { lines: BatchLine[]; text: string }[] {
  const files: { lines: BatchLine[]; text: string }[] = [];
  let current: BatchLine[] = [];
  let parts: string[] = [];
  let bytes = 0;
  const flush = () => {
    if (current.length === 0) return;
    files.push({ lines: current, text: `${parts.join('\n')}\n` });
    current = [];
    parts = [];
    bytes = 0;
  };
  for (const line of lines) {
    const text = jsonlLine(line);
    const size = Buffer.byteLength(text, 'utf8') + 1;
    if (size > maxBytes) throw new Error(`batch: the request of trial ${line.key} alone is over ${maxBytes} bytes`);
    if (current.length >= maxRequests || bytes + size > maxBytes) flush();
    current.push(line);
    parts.push(text);
    bytes += size;
  }
  flush();
  return files;
}

/** One result line read: an answer, or the provider's reason it brought none. */
export type BatchResult =
  | { key: string; ok: true; completion: Completion }
  | { key: string; ok: false; reason: string };

const clip = (text: string, max = 300): string => (text.length > max ? `${text.slice(0, max)}…` : text);

/**
 * The results of an output or error file, by custom_id. A line with status 200 whose body is a completion is an
 * answer (read by the live path's reader, completion.ts); any other line is a failure with the provider's words: an
 * `error` object (`batch_expired`, `batch_cancelled`), a non-200 status with its body's message, a body that is no
 * completion. A line that does not parse or names no custom_id is skipped (its request stays without a result).
 */
export function readResultLines(text: string): BatchResult[] {
  const results: BatchResult[] = [];
  for (const raw of text.split('\n')) {
    if (raw.trim() === '') continue;
    let line: { custom_id?: unknown; response?: { status_code?: unknown; body?: unknown } | null; error?: unknown };
    try {
      line = JSON.parse(raw);
    } catch {
      continue;
    }
    if (typeof line.custom_id !== 'string') continue;
    const key = line.custom_id;
    const error = line.error as { code?: unknown; message?: unknown } | null | undefined;
    if (error && (error.code !== undefined || error.message !== undefined)) {
      const code = typeof error.code === 'string' ? `${error.code}: ` : '';
      results.push({ key, ok: false, reason: clip(`${code}${String(error.message ?? '')}`) });
      continue;
    }
    const status = line.response?.status_code;
    const body = line.response?.body;
    if (status !== 200) {
      const envelope = errorEnvelope(body ?? undefined, undefined) as { error?: { message?: string } } | undefined;
      const message = envelope?.error?.message ?? (typeof body === 'string' ? body : JSON.stringify(body ?? null));
      results.push({ key, ok: false, reason: clip(`status ${String(status)}: ${message}`) });
      continue;
    }
    try {
      results.push({ key, ok: true, completion: readCompletion(body) });
    } catch (fault) {
      results.push({ key, ok: false, reason: clip((fault as Error).message) });
    }
  }
  return results;
}
