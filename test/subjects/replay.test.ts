import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/errors.js';
import { createSubject, detectReplayFormat, type Subject, type TrialResponse } from '../../src/subjects/index.js';
import { type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';
import { filesUnder, loopbackSubject, stepsRequest, tempDir } from '../support/openai-harness.js';
import { simStepsAnswerer } from '../support/sim-over-http.js';

const SCC_LOG = fileURLToPath(new URL('../../fixtures/scc/logs/closed.jsonl', import.meta.url));

let server: LoopbackServer;
let work: { path: string; remove: () => Promise<void> };
const requests = Array.from({ length: 8 }, (_, i) => stepsRequest(4, 200 + (i % 4), Math.floor(i / 4)));
const recorded: Record<string, TrialResponse[]> = {};

beforeAll(async () => {
  server = await startLoopbackServer({ answer: simStepsAnswerer(0.6) });
  work = await tempDir('cb-replay-');
  for (const model of ['model-a', 'model-b']) {
    const subject = loopbackSubject(server.baseURL, { model, cacheDir: join(work.path, 'cache') });
    recorded[model] = await Promise.all(requests.map((r) => subject.answer(r)));
  }
});
afterAll(async () => {
  await server.close();
  await work.remove();
});

const replay = (spec: string, report?: (m: string) => void) => createSubject(spec, { report });
const answersOf = async (subject: Subject) => Promise.all(requests.map((r) => subject.answer(r)));
const texts = (responses: TrialResponse[]) =>
  responses.map((r) => (r.kind === 'answer' ? r.text : r.kind === 'error' ? r.error : r.reason));

describe('replay of our own records', () => {
  it('replays a cache directory for the chosen model, with no request sent', async () => {
    const before = server.log.length;
    const subject = await replay(`replay:${join(work.path, 'cache')}#model-b`);
    expect(subject.identity).toMatchObject({ kind: 'replay', model: 'model-b', parameters: { trials: 8 } });
    const replayed = await answersOf(subject);
    expect(texts(replayed)).toEqual(texts(recorded['model-b']));
    for (const r of replayed) expect(r).toMatchObject({ kind: 'answer', cacheHit: true, attempts: 0 });
    expect(server.log.length).toBe(before);
  });

  it('asks for #model when the records hold several, and names the models it has', async () => {
    await expect(replay(`replay:${join(work.path, 'cache')}`)).rejects.toThrow(/several models \(model-a, model-b\)/);
    await expect(replay(`replay:${join(work.path, 'cache')}#model-z`)).rejects.toThrow(/no answers of model 'model-z'/);
  });

  it('replays a JSONL of cache entries, skipping (and reporting) corrupt lines', async () => {
    const files = (await filesUnder(join(work.path, 'cache'))).sort();
    const lines = await Promise.all(files.map((f) => readFile(f, 'utf8')));
    const jsonl = join(work.path, 'records.jsonl');
    await writeFile(jsonl, `${lines.join('')}{"format": "ceilingbench-cache/1", "key": \n\n`);
    const reports: string[] = [];
    const replayed = await answersOf(await replay(`replay:${jsonl}#model-a`, (m) => reports.push(m)));
    expect(texts(replayed)).toEqual(texts(recorded['model-a']));
    expect(reports).toEqual([expect.stringMatching(/records\.jsonl:17 \(not JSON\)/)]);
  });

  it('a replayed answer keeps its refusal, reasoning channel and served model', async () => {
    const files = (await filesUnder(join(work.path, 'cache'))).sort();
    const entries = await Promise.all(files.map(async (f) => JSON.parse(await readFile(f, 'utf8'))));
    const details = { refusal: 'I cannot.', reasoning: 'thinking…', servedModel: 'model-a-2026', servedProvider: 'Up' };
    const jsonl = join(work.path, 'details.jsonl');
    const lines = entries.map((e) => `${JSON.stringify({ ...e, response: { ...e.response, ...details } })}\n`);
    await writeFile(jsonl, lines.join(''));
    const replayed = await answersOf(await replay(`replay:${jsonl}#model-a`));
    for (const r of replayed) expect(r).toMatchObject({ kind: 'answer', ...details });
  });

  it('answers a trial it has no record of with an error (missing data), never a guess', async () => {
    const subject = await replay(`replay:${join(work.path, 'cache')}#model-a`);
    const unseen = await subject.answer(stepsRequest(4, 200, 9));
    expect(unseen).toMatchObject({ kind: 'error', error: expect.stringMatching(/no recorded answer .* trial 9/) });
  });

  it('rejects paths that are neither format with a usage error', async () => {
    const other = join(work.path, 'other.jsonl');
    await writeFile(other, '{"hello": 1}\n');
    await expect(replay(`replay:${other}`)).rejects.toBeInstanceOf(UsageError);
    await expect(replay(`replay:${join(work.path, 'missing.jsonl')}`)).rejects.toThrow(/does not exist/);
  });
});

describe('replay dispatch to SCC logs', () => {
  it('detects the SCC log format and hands it to the SCC replay module', async () => {
    expect(await detectReplayFormat(SCC_LOG)).toBe('scc-log');
    expect(await detectReplayFormat(join(work.path, 'cache'))).toBe('cache-dir');
    const subject = await replay(`replay:${SCC_LOG}#gpt-4o`);
    expect(subject.identity.kind).toBe('replay');
  });
});
