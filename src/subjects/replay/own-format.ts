import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../../errors.js';
import { answerDetails, type CacheEntry, cacheEntrySchema } from '../cache/entry.js';
import { trialIdentity } from '../cache/key.js';
import type { CacheReporter } from '../cache/store.js';
import type { Subject, TrialRequest, TrialResponse } from '../subject.js';

/**
 * Replays ceilingbench's own records: a cache directory (`<dir>/<xx>/<key>.json`) or a JSONL file with one
 * cache entry per line. A trial is looked up by (task, level, instance seed and profile, trial index, prompt
 * digest) and the output budget of the call, so the other endpoint parameters of the recording need not be known.
 * The budget tells apart the calls of one trial under SCC's budget rule (4096, then 8192, …, each its own
 * entry); an entry that records no budget serves its trial at any budget. An entry written before the rule
 * moved into the assay holds the rule's final answer and its `budget` record, which is passed on, so the rule
 * asks no further. A trial with no record is a `kind: 'error'` response (outcome `api`, missing data), never a
 * guessed answer.
 */
export async function createOwnReplaySubject(
  path: string,
  options: { model?: string; isDirectory: boolean; specText: string; report?: CacheReporter },
): Promise<Subject> {
  const report = options.report ?? ((message: string) => process.emitWarning(message, 'CeilingbenchReplayWarning'));
  const all = options.isDirectory ? await readCacheDir(path, report) : await readJsonl(path, report);
  const models = [...new Set(all.map((e) => e.meta.model))].sort();
  if (options.model === undefined && models.length > 1) {
    throw new UsageError(
      `replay: ${path} holds answers of several models (${models.join(', ')}); pick one with replay:${path}#<model>`,
    );
  }
  if (options.model !== undefined && !models.includes(options.model)) {
    throw new UsageError(
      `replay: ${path} holds no answers of model '${options.model}'; it has: ${models.join(', ') || '(none)'}`,
    );
  }
  const model = options.model ?? models[0];
  /** Per trial, its entries by recorded budget (null: the entry records none). */
  const byTrial = new Map<string, Map<number | null, CacheEntry>>();
  for (const entry of all) {
    if (entry.meta.model !== model) continue;
    const key = lookupKey(entry.meta);
    const budget = recordedBudget(entry.meta.params);
    const calls = byTrial.get(key) ?? new Map<number | null, CacheEntry>();
    byTrial.set(key, calls);
    const previous = calls.get(budget);
    if (previous && previous.response.text !== entry.response.text) {
      throw new UsageError(
        `replay: ${path} holds different answers for one trial (${key}${budget === null ? '' : ` at budget ${budget}`}), ` +
          'recorded with different parameters; replay one recording at a time',
      );
    }
    calls.set(budget, entry);
  }
  return {
    identity: {
      spec: options.specText,
      kind: 'replay',
      ...(model !== undefined ? { model } : {}),
      parameters: { path, trials: byTrial.size },
    },
    async answer(request: TrialRequest): Promise<TrialResponse> {
      const { instance } = request;
      const calls = byTrial.get(lookupKey(trialIdentity(request)));
      const entry = calls?.get(request.maxOutputTokens) ?? calls?.get(null);
      if (!entry) {
        const at = calls ? ` at budget ${request.maxOutputTokens}` : '';
        return {
          kind: 'error',
          error: `replay: no recorded answer for ${request.taskId} level ${instance.level} seed ${instance.seed} trial ${request.trialIndex}${at}`,
          latencyMs: 0,
          attempts: 0,
        };
      }
      // A recorded answer: no request is sent (attempts 0, cacheHit); latency is the recording's, a timing field.
      const { text, finishReason, usage, latencyMs, budget } = entry.response;
      return {
        kind: 'answer',
        text,
        // a replayed refusal is still a refusal, a replayed reasoning channel still set aside
        ...answerDetails(entry.response),
        finishReason,
        usage,
        latencyMs,
        cacheHit: true,
        attempts: 0,
        ...(budget ? { budget } : {}),
      };
    },
  };
}

type LookupFields = Pick<
  CacheEntry['meta'],
  'taskId' | 'level' | 'seed' | 'instanceProfile' | 'trialIndex' | 'promptSha256'
>;

/** The output budget a recorded call was sent with (either budget field of the chat API); null if none. */
function recordedBudget(params: CacheEntry['meta']['params']): number | null {
  for (const field of ['max_completion_tokens', 'max_tokens']) {
    const value = params[field];
    if (typeof value === 'number') return value;
  }
  return null;
}

const lookupKey = (m: LookupFields): string =>
  JSON.stringify([m.taskId, m.level, m.seed, m.instanceProfile, m.trialIndex, m.promptSha256]);

function validate(json: unknown, where: string, report: CacheReporter): CacheEntry | undefined {
  const parsed = cacheEntrySchema.safeParse(json);
  if (parsed.success) return parsed.data;
  report(`replay: skipping invalid record ${where} (${parsed.error.issues[0]?.message})`);
  return undefined;
}

function parseJson(text: string, where: string, report: CacheReporter): unknown {
  try {
    return JSON.parse(text);
  } catch {
    report(`replay: skipping corrupt record ${where} (not JSON)`);
    return undefined;
  }
}

async function readCacheDir(dir: string, report: CacheReporter): Promise<CacheEntry[]> {
  const entries: CacheEntry[] = [];
  const shards = (await readdir(dir, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
  for (const shard of shards.sort()) {
    const files = (await readdir(join(dir, shard))).filter((f) => f.endsWith('.json')).sort();
    for (const file of files) {
      const where = join(dir, shard, file);
      const json = parseJson(await readFile(where, 'utf8'), where, report);
      const entry = json === undefined ? undefined : validate(json, where, report);
      if (entry) entries.push(entry);
    }
  }
  return entries;
}

async function readJsonl(path: string, report: CacheReporter): Promise<CacheEntry[]> {
  const entries: CacheEntry[] = [];
  const lines = (await readFile(path, 'utf8')).split('\n');
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const where = `${path}:${index + 1}`;
    const json = parseJson(line, where, report);
    const entry = json === undefined ? undefined : validate(json, where, report);
    if (entry) entries.push(entry);
  });
  return entries;
}
