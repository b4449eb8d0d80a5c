import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PyRandom } from '../../src/rng/index.js';
import { buildProvenance } from '../../src/schema/provenance.js';
import { ResponseCache } from '../../src/subjects/cache/store.js';
import { codeHash } from '../../src/subjects/function/code-hash.js';
import { createSubject } from '../../src/subjects/index.js';
import { createCacheStep } from '../../src/subjects/openai/cache-step.js';
import type { TrialRequest, TrialResponse } from '../../src/subjects/subject.js';
import { fakeStepsPlugin } from '../support/fake-tasks.js';
import { tempDir } from '../support/openai-harness.js';

// Issue 42 item 3: a cache entry is served only to the request it was stored for, and a subject that is a module
// is known by its code unless its version is pinned.

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});
async function dir(prefix: string): Promise<string> {
  const d = await tempDir(prefix);
  cleanups.push(d.remove);
  return d.path;
}

const instance = fakeStepsPlugin.generate(new PyRandom(5), 3, { seed: 5 });
const request = (trialIndex = 0): TrialRequest => ({
  taskId: fakeStepsPlugin.id,
  instance,
  prompt: fakeStepsPlugin.render(instance),
  trialIndex,
  maxOutputTokens: 64,
});
const call = { messages: [{ role: 'user' as const, content: 'hello' }], params: { temperature: 0 } };
const answered = (text: string): TrialResponse => ({
  kind: 'answer',
  text,
  finishReason: 'stop',
  usage: null,
  latencyMs: 1,
  cacheHit: false,
  attempts: 1,
});

describe('a cache entry belongs to its request', () => {
  it('an entry whose stored identity is another request is a miss: reported, counted on the trial, replaced', async () => {
    const warnings: string[] = [];
    const cache = new ResponseCache(await dir('cb-cache-id-'), 'read-write', (m) => warnings.push(m));
    const step = createCacheStep({ cache, endpoint: 'https://a.example/v1', model: 'gpt-x' });
    const first = await step.answer(request(), call, async () => answered('the real answer'));
    expect(first).toMatchObject({ kind: 'answer', cacheHit: false });
    const key = step.keyOf(request(), call);
    // hand-edited (or copied from another endpoint under this trial's key): the stored identity says so
    const path = cache.pathOf(key);
    const entry = JSON.parse(await readFile(path, 'utf8'));
    await writeFile(path, JSON.stringify({ ...entry, meta: { ...entry.meta, endpoint: 'https://b.example/v1' } }));
    let asked = 0;
    const second = await step.answer(request(), call, async () => {
      asked += 1;
      return answered('asked again');
    });
    expect(asked).toBe(1);
    expect(second).toMatchObject({ kind: 'answer', text: 'asked again', cacheHit: false });
    expect(second.kind === 'answer' && second.cacheMismatch).toContain(
      'endpoint: stored "https://b.example/v1", this request "https://a.example/v1"',
    );
    expect(warnings.join('\n')).toMatch(
      /cache: entry .* belongs to another request \(endpoint: .*\); treated as a miss/,
    );
    // replaced by this request's own: the next run hits it
    const third = await step.answer(request(), call, async () => answered('never'));
    expect(third).toMatchObject({ text: 'asked again', cacheHit: true });
  });

  it.each([
    ['model', { model: 'other-model' }],
    ['trialIndex', { trialIndex: 7 }],
    ['promptSha256', { promptSha256: 'f'.repeat(64) }],
    ['parameters', { params: { temperature: 1 } }],
  ])('a stored %s of another request is a miss', async (field, change) => {
    const cache = new ResponseCache(await dir('cb-cache-id-'), 'read-write', () => {});
    const step = createCacheStep({ cache, endpoint: 'https://a.example/v1', model: 'gpt-x' });
    await step.answer(request(), call, async () => answered('stored'));
    const path = cache.pathOf(step.keyOf(request(), call));
    const entry = JSON.parse(await readFile(path, 'utf8'));
    await writeFile(path, JSON.stringify({ ...entry, meta: { ...entry.meta, ...change } }));
    const r = await step.answer(request(), call, async () => answered('fresh'));
    expect(r).toMatchObject({ text: 'fresh', cacheHit: false });
    expect(r.kind === 'answer' && r.cacheMismatch).toContain(`${field}: stored`);
  });
});

/** A module exporting what defineSubject returns (without importing the package from a temp folder). */
const moduleText = (text: string, version?: string) =>
  `import { helper } from './helper.mjs';\nexport default { [Symbol.for('ceilingbench.definedSubject')]: true, id: 'same', version: '${version ?? '1'}',${version ? ' pinned: true,' : ''} answer: async () => ({ text: helper('${text}') }) };\n`;

describe('a module subject is known by its code unless its version is pinned', () => {
  it('two modules with the same id and version do not share answers; an edited import is a new code hash', async () => {
    const root = await dir('cb-code-hash-');
    await writeFile(join(root, 'helper.mjs'), 'export const helper = (t) => t;\n');
    await writeFile(join(root, 'a.mjs'), moduleText('I am subject a'));
    await writeFile(join(root, 'b.mjs'), moduleText('I am subject b'));
    const cacheDir = await dir('cb-code-hash-cache-');
    const env = { CEILINGBENCH_CACHE_DIR: cacheDir };
    const a = await createSubject('module:./a.mjs', { root, env, cacheDir });
    const b = await createSubject('module:./b.mjs', { root, env, cacheDir });
    expect(a.identity.parameters.codeHash).toMatch(/^sha256:[0-9a-f]{16}$/);
    expect(a.identity.parameters.codeHash).not.toBe(b.identity.parameters.codeHash);
    const fromA = await a.answer(request());
    const fromB = await b.answer(request());
    expect(fromA).toMatchObject({ text: 'I am subject a', cacheHit: false });
    expect(fromB).toMatchObject({ text: 'I am subject b', cacheHit: false });
    // the same module again: its own cache
    const again = await createSubject('module:./b.mjs', { root, env, cacheDir });
    expect(await again.answer(request())).toMatchObject({ text: 'I am subject b', cacheHit: true });
    // what it imports from the repository is part of it
    const before = codeHash(join(root, 'b.mjs'), root);
    await writeFile(join(root, 'helper.mjs'), "export const helper = (t) => t + '!';\n");
    expect(codeHash(join(root, 'b.mjs'), root)).not.toBe(before);
  });

  it('a pinned version is trusted, and the report says it was pinned', async () => {
    const root = await dir('cb-code-pinned-');
    await writeFile(join(root, 'helper.mjs'), 'export const helper = (t) => t;\n');
    await writeFile(join(root, 'p.mjs'), moduleText('pinned', '7'));
    const subject = await createSubject('module:./p.mjs', { root, cacheDir: await dir('cb-code-pinned-cache-') });
    expect(subject.identity.parameters).toEqual({ version: '7', pinned: true });
    const provenance = buildProvenance({ subjects: [subject.identity], seed: 0, packageVersion: '0.1.0' });
    expect(provenance.subjects[0].code).toEqual({ version: '7', pinned: true });
  });
});
