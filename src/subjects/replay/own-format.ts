import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../../errors.js';
import { type CacheEntry, cacheEntrySchema } from '../cache/entry.js';
import { promptSha256 } from '../cache/key.js';
import type { CacheReporter } from '../cache/store.js';
import type { Subject, TrialRequest, TrialResponse } from '../subject.js';

/**
 * Replays ceilingbench's own records: a cache directory (`<dir>/<xx>/<key>.json`) or a JSONL file with one
 * cache entry per line. A trial is looked up by (task, level, instance seed and profile, trial index, prompt
 * digest), so the endpoint parameters of the recording need not be known. A trial with no record is a
 * `kind: 'error'` response (outcome `api`, missing data), never a guessed answer.
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
  const byTrial = new Map<string, CacheEntry>();
  for (const entry of all) {
    if (entry.meta.model !== model) continue;
    const key = lookupKey(entry.meta);
    const previous = byTrial.get(key);
    if (previous && previous.response.text !== entry.response.text) {
      throw new UsageError(
        `replay: ${path} holds different answers for one trial (${key}), recorded with different parameters; ` +
          'replay one recording at a time',
      );
    }
    byTrial.set(key, entry);
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
      const entry = byTrial.get(
        lookupKey({
          taskId: request.taskId,
          level: instance.level,
          seed: instance.seed,
          instanceProfile: instance.profile,
          trialIndex: request.trialIndex,
          promptSha256: promptSha256(request.prompt),
        }),
      );
      if (!entry) {
        return {
          kind: 'error',
          error: `replay: no recorded answer for ${request.taskId} level ${instance.level} seed ${instance.seed} trial ${request.trialIndex}`,
          latencyMs: 0,
          attempts: 0,
        };
      }
      // A recorded answer: no request is sent (attempts 0, cacheHit); latency is the recording's, a timing field.
      const { text, finishReason, usage, latencyMs, budget } = entry.response;
      return {
        kind: 'answer',
        text,
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
