import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AuthenticationError } from 'openai';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { PyRandom } from '../../src/rng/index.js';
import { localGate, type SpendGate, SpendLedger } from '../../src/spend/ledger.js';
import { ResponseCache } from '../../src/subjects/cache/store.js';
import {
  type DefinedSubject,
  defineSubject,
  isDefinedSubject,
  type SubjectAnswerInput,
  SubjectDefinitionError,
} from '../../src/subjects/function/define.js';
import { createFunctionSubject, type FunctionSubjectOptions } from '../../src/subjects/function/function-subject.js';
import { loadConfigSubject, loadModuleSubject } from '../../src/subjects/function/module-ref.js';
import { createSubject } from '../../src/subjects/index.js';
import { RateLimiter } from '../../src/subjects/limiter.js';
import type { TrialRequest, TrialResponse } from '../../src/subjects/subject.js';
import { fakeStepsPlugin } from '../support/fake-tasks.js';
import { tempDir } from '../support/openai-harness.js';
import { fakeClock } from './fake-clock.js';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});
async function cacheDir(): Promise<string> {
  const dir = await tempDir('cb-fn-subject-');
  cleanups.push(dir.remove);
  return dir.path;
}

const instance = fakeStepsPlugin.generate(new PyRandom(5), 3, { seed: 5 });
const request = (trialIndex = 0, signal?: AbortSignal): TrialRequest => ({
  taskId: fakeStepsPlugin.id,
  instance,
  prompt: fakeStepsPlugin.render(instance),
  trialIndex,
  maxOutputTokens: 64,
  ...(signal ? { signal } : {}),
});

/** A subject over `answer`, counting its calls; a fresh limiter and a clock that never waits. */
function counted(
  answer: (input: SubjectAnswerInput, call: number) => Promise<unknown>,
  options: FunctionSubjectOptions & { id?: string; version?: string } = {},
) {
  const inputs: SubjectAnswerInput[] = [];
  const defined = defineSubject({
    id: options.id ?? 'my-pipeline',
    ...(options.version !== undefined ? { version: options.version } : {}),
    answer: async (input) => {
      inputs.push(input);
      return answer(input, inputs.length) as never;
    },
  });
  const subject = createFunctionSubject(defined, {
    limiter: new RateLimiter({ concurrency: 4 }),
    clock: fakeClock(),
    ...options,
  });
  return { subject, inputs, defined };
}

const ok = async () => ({ text: '42', usage: { promptTokens: 10, completionTokens: 5 } });
const expectKind = <K extends TrialResponse['kind']>(
  r: TrialResponse,
  kind: K,
): Extract<TrialResponse, { kind: K }> => {
  expect(r.kind, JSON.stringify(r)).toBe(kind);
  return r as Extract<TrialResponse, { kind: K }>;
};

describe('defineSubject', () => {
  it('brands a valid definition, version defaulting to "1" and numbers kept as text', () => {
    const a = defineSubject({ id: 'agent/v2', answer: ok });
    expect(isDefinedSubject(a)).toBe(true);
    expect(a.version).toBe('1');
    expect(defineSubject({ id: 'x', version: 3, answer: ok }).version).toBe('3');
    expect(isDefinedSubject({ id: 'x', version: '1', answer: ok })).toBe(false);
  });

  it('refuses a definition without id or answer, naming the field', () => {
    expect(() => defineSubject({ id: '', answer: ok })).toThrow(SubjectDefinitionError);
    expect(() => defineSubject({ id: 'has space', answer: ok })).toThrow(/'id'/);
    expect(() => defineSubject({ id: 'x', answer: 'nope' } as never)).toThrow(/'answer' must be a function/);
  });
});

describe('a function subject', () => {
  it('answers with what the function returned: the messages, budget and trial reach it, never the instance', async () => {
    const { subject, inputs } = counted(async () => ({
      text: '42',
      reasoning: 'thought',
      finishReason: 'length',
      usage: { promptTokens: 10, completionTokens: 5 },
    }));
    const response = expectKind(await subject.answer(request(2)), 'answer');
    expect(response).toMatchObject({
      text: '42',
      reasoning: 'thought',
      finishReason: 'length',
      usage: { promptTokens: 10, completionTokens: 5 },
      attempts: 1,
      cacheHit: false,
    });
    const [input] = inputs;
    const prompt = fakeStepsPlugin.render(instance);
    expect(input.messages.at(-1)).toEqual({ role: 'user', content: prompt.user });
    expect(input.maxOutputTokens).toBe(64);
    expect(input.trial).toMatchObject({ taskId: fakeStepsPlugin.id, level: 3, index: 2, attempt: 1 });
    expect(input.trial.key).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.keys(input).sort()).toEqual(['maxOutputTokens', 'messages', 'signal', 'trial']);
    expect(subject.identity).toEqual({
      spec: 'function:my-pipeline',
      kind: 'function',
      model: 'my-pipeline',
      endpoint: 'function:my-pipeline',
      parameters: { version: '1' },
    });
  });

  it('defaults: finish reason stop, usage unknown (null, never 0)', async () => {
    const { subject } = counted(async () => ({ text: 'x' }));
    expect(expectKind(await subject.answer(request()), 'answer')).toMatchObject({ finishReason: 'stop', usage: null });
  });

  it('is cached by id, version and trial: a rerun calls nothing, a bumped version calls again', async () => {
    const dir = await cacheDir();
    const cache = () => new ResponseCache(dir, 'read-write', () => undefined);
    const first = counted(ok, { cache: cache() });
    await first.subject.answer(request(0));
    await first.subject.answer(request(1));
    expect(first.inputs).toHaveLength(2);

    const rerun = counted(ok, { cache: cache() });
    const hit = expectKind(await rerun.subject.answer(request(1)), 'answer');
    expect(hit).toMatchObject({ cacheHit: true, attempts: 0, text: '42' });
    expect(rerun.inputs).toHaveLength(0);

    const bumped = counted(ok, { cache: cache(), version: '2' });
    expect(expectKind(await bumped.subject.answer(request(1)), 'answer').cacheHit).toBe(false);
    const other = counted(ok, { cache: cache(), id: 'other-pipeline' });
    expect(expectKind(await other.subject.answer(request(1)), 'answer').cacheHit).toBe(false);
    expect(bumped.inputs.length + other.inputs.length).toBe(2);
  });

  it('a malformed return is an `api` error that says what is wrong, not retried', async () => {
    const { subject, inputs } = counted(async () => ({ txt: 'oops' }));
    const error = expectKind(await subject.answer(request()), 'error');
    expect(error.error).toMatch(/malformed answer.*'text'/);
    expect(error.error).toMatch(/unknown field\(s\) 'txt'/);
    expect(inputs).toHaveLength(1);
    for (const bad of [null, 'text', { text: 1 }, { text: 'a', usage: { promptTokens: -1, completionTokens: 0 } }]) {
      const again = counted(async () => bad);
      expect(expectKind(await again.subject.answer(request()), 'error').error).toMatch(/malformed answer/);
    }
  });

  it('a transient error (status 503, a network TypeError, a timeout) is retried; the answer counts every call', async () => {
    const status = Object.assign(new Error('upstream busy'), { status: 503 });
    const { subject, inputs } = counted(async (_input, call) => {
      if (call === 1) throw status;
      if (call === 2) throw new TypeError('fetch failed');
      return { text: 'done' };
    });
    const response = expectKind(await subject.answer(request()), 'answer');
    expect(response).toMatchObject({ text: 'done', attempts: 3 });
    expect(inputs.map((i) => i.trial.attempt)).toEqual([1, 2, 3]);
  });

  it('a final error (status 400, a plain Error) is `api` after one call; retries stop at maxAttempts', async () => {
    const bad = counted(async () => {
      throw Object.assign(new Error('bad request'), { statusCode: 400 });
    });
    expect(expectKind(await bad.subject.answer(request()), 'error').error).toMatch(/HTTP 400: bad request/);
    expect(bad.inputs).toHaveLength(1);
    const plain = counted(async () => {
      throw new Error('my bug');
    });
    expect(expectKind(await plain.subject.answer(request()), 'error')).toMatchObject({ attempts: 1 });
    const busy = counted(
      async () => {
        throw Object.assign(new Error('rate limited'), { status: 429 });
      },
      { retry: { maxAttempts: 3 } },
    );
    const error = expectKind(await busy.subject.answer(request()), 'error');
    expect(error.attempts).toBe(3);
    expect(error.error).toMatch(/gave up after 3 attempts/);
  });

  it("the OpenAI SDK's 401 stops the subject: that trial and every later one fail without a call (CB_PROVIDER_FATAL)", async () => {
    const { subject, inputs } = counted(async () => {
      throw new AuthenticationError(401, { message: 'bad key' }, 'bad key', new Headers());
    });
    const first = expectKind(await subject.answer(request(0)), 'error');
    expect(first).toMatchObject({ stopsRun: true, attempts: 1 });
    expect(first.error).toMatch(/run stopped \(CB_PROVIDER_FATAL\): the endpoint refused the credentials/);
    const later = expectKind(await subject.answer(request(1)), 'error');
    expect(later).toMatchObject({ stopsRun: true, attempts: 0 });
    expect(inputs).toHaveLength(1);
  });

  it('a call that never ends times out (its signal aborted) and is retried, then `api`', async () => {
    const signals: AbortSignal[] = [];
    const { subject } = counted(
      (input) => {
        signals.push(input.signal);
        return new Promise(() => undefined); // ignores its signal
      },
      { requestTimeoutMs: 5, retry: { maxAttempts: 2 } },
    );
    const error = expectKind(await subject.answer(request()), 'error');
    expect(error.error).toMatch(/timed out after 5 ms/);
    expect(error.attempts).toBe(2);
    expect(signals.every((s) => s.aborted)).toBe(true);
  });

  it('the trial signal aborts the call at once, whether the function listens or not', async () => {
    const controller = new AbortController();
    let seen: AbortSignal | undefined;
    const { subject } = counted((input) => {
      seen = input.signal;
      setTimeout(() => controller.abort(), 1);
      return new Promise(() => undefined);
    });
    const error = expectKind(await subject.answer(request(0, controller.signal)), 'error');
    expect(error.error).toMatch(/aborted/);
    expect(seen?.aborted).toBe(true);
    const before = counted(ok);
    const aborted = AbortSignal.abort();
    expect(expectKind(await before.subject.answer(request(0, aborted)), 'error').attempts).toBe(0);
    expect(before.inputs).toHaveLength(0);
  });

  it('asks the spend ledger: usage is charged as given, no usage at its cap (never 0), a refusal sends nothing', async () => {
    const ledger = new SpendLedger({ maxCalls: 2 });
    const spend = { gate: localGate(ledger), prices: {} };
    const withUsage = counted(ok, { spend });
    await withUsage.subject.answer(request(0));
    expect(ledger.report().spent).toMatchObject({ calls: 1, tokens: 15 });

    const unknown = counted(async () => ({ text: 'x' }), { spend });
    await unknown.subject.answer(request(1));
    const spent = ledger.report().spent;
    expect(spent.calls).toBe(2);
    // the cap: the prompt estimate plus the whole output budget
    expect(spent.tokens - 15).toBeGreaterThanOrEqual(64);

    const refused = counted(ok, { spend });
    const notSent = expectKind(await refused.subject.answer(request(2)), 'not-sent');
    expect(notSent.reason).toMatch(/max-calls|maxCalls|calls/);
    expect(refused.inputs).toHaveLength(0);
  });

  it('a failed trial is charged its calls, no tokens', async () => {
    const calls: number[] = [];
    const gate: SpendGate = {
      admit: async () => ({ admitted: true, id: 1 }),
      settle: async (_id, actual) => {
        calls.push(actual.calls, actual.tokens);
      },
    };
    const { subject } = counted(
      async () => {
        throw new TypeError('fetch failed');
      },
      { spend: { gate, prices: {} }, retry: { maxAttempts: 2 } },
    );
    await subject.answer(request());
    expect(calls).toEqual([2, 0]);
  });
});

describe('module: subjects', () => {
  const subjectModule = `
const brand = Symbol.for('ceilingbench.definedSubject');
export default { [brand]: true, id: 'from-module', version: '7', answer: async () => ({ text: 'hi' }) };
export const notASubject = { id: 'x' };
`;

  it('load the named export, relative to the root; name it in the identity by spec and id', async () => {
    const root = await cacheDir();
    await writeFile(join(root, 'pipeline.mjs'), subjectModule);
    const loaded: DefinedSubject = await loadModuleSubject(
      { path: './pipeline.mjs', exportName: 'default' },
      'module:./pipeline.mjs',
      root,
    );
    expect(loaded.id).toBe('from-module');
    const subject = await createSubject('module:./pipeline.mjs', { root, cacheMode: 'off' });
    expect(subject.identity).toMatchObject({
      spec: 'module:./pipeline.mjs',
      kind: 'function',
      model: 'from-module',
      // not pinned by defineSubject({ version }) (this object does not say so): known by its code's hash
      parameters: { codeHash: expect.stringMatching(/^sha256:[0-9a-f]{16}$/) },
    });
    expect(expectKind(await subject.answer(request()), 'answer').text).toBe('hi');
  });

  it('a missing file, a missing export or an export that is not a subject is a usage error saying which', async () => {
    const root = await cacheDir();
    await writeFile(join(root, 'pipeline.mjs'), subjectModule);
    await expect(createSubject('module:./nope.mjs', { root })).rejects.toMatchObject({
      code: 'CB_SUBJECT_SPEC',
      message: expect.stringMatching(/no module at .*nope\.mjs/),
    });
    await expect(createSubject('module:./pipeline.mjs#other', { root })).rejects.toThrow(
      /has no export 'other' \(its defineSubject\(\) exports: #default\)/,
    );
    await expect(createSubject('module:./pipeline.mjs#notASubject', { root })).rejects.toThrow(
      /is not a subject: export the result of defineSubject/,
    );
  });
});

describe('defineSubject subjects in ceilingbench.config.ts', () => {
  const pipeline = defineSubject({ id: 'support-agent', answer: async () => ({ text: 'from config' }) });
  const configModule = { default: { subjects: ['sim:default', pipeline] } };

  it('are listed as function:<id>, and each process finds them in the file by that id', async () => {
    const root = await cacheDir();
    const configFile = join(root, 'ceilingbench.config.mjs');
    await writeFile(configFile, 'export default {};');
    const config = await loadConfig({}, root, async () => configModule);
    expect(config.subjects).toEqual(['sim:default', 'function:support-agent']);

    const importer = async () => configModule;
    expect(await loadConfigSubject('support-agent', 'function:support-agent', configFile, importer)).toBe(pipeline);
    const subject = await createSubject('function:support-agent', {
      configFile,
      importModule: importer,
      cacheMode: 'off',
    });
    expect(subject.identity).toMatchObject({
      spec: 'function:support-agent',
      kind: 'function',
      model: 'support-agent',
    });
    expect(expectKind(await subject.answer(request()), 'answer').text).toBe('from config');
  });

  it('an id the file does not list, or no file, is a usage error naming the ids it has', async () => {
    await expect(
      createSubject('function:other', {
        configFile: '/x/ceilingbench.config.ts',
        importModule: async () => configModule,
      }),
    ).rejects.toThrow(/lists no defineSubject\(\) subject with id 'other' \(its ids: 'support-agent'\)/);
    await expect(createSubject('function:other', { configFile: null })).rejects.toMatchObject({
      code: 'CB_SUBJECT_SPEC',
      message: expect.stringMatching(/no configuration file was read/),
    });
  });

  it('anything else in subjects is a configuration error', async () => {
    const root = await cacheDir();
    await writeFile(join(root, 'ceilingbench.config.mjs'), 'export default {};');
    await expect(
      loadConfig({}, root, async () => ({ default: { subjects: [{ id: 'x', answer: async () => ({ text: '' }) }] } })),
    ).rejects.toThrow(/subjects.0: not a subject spec \(e.g. openai:gpt-4o-mini\) or a defineSubject\(\) subject/);
  });
});
