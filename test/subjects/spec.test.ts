import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/errors.js';
import {
  createSubject,
  parseSubjectSpec,
  SubjectSpecError,
  subjectFromEnv,
  VALID_SUBJECT_FORMS,
} from '../../src/subjects/index.js';
import { fakeResolve } from '../support/fake-tasks.js';

describe('parseSubjectSpec', () => {
  it('parses every valid form', () => {
    expect(parseSubjectSpec('oracle')).toEqual({ kind: 'oracle' });
    expect(parseSubjectSpec('openai:gpt-4o-mini')).toEqual({ kind: 'openai', model: 'gpt-4o-mini' });
    expect(parseSubjectSpec('openai:meta-llama/llama-3.1-8b:free')).toEqual({
      kind: 'openai',
      model: 'meta-llama/llama-3.1-8b:free',
    });
    expect(parseSubjectSpec('replay:logs/a.jsonl')).toEqual({ kind: 'replay', path: 'logs/a.jsonl' });
    expect(parseSubjectSpec('module:./my-subject.ts')).toEqual({
      kind: 'function',
      source: 'module',
      path: './my-subject.ts',
      exportName: 'default',
    });
    expect(parseSubjectSpec('function:support/agent')).toEqual({
      kind: 'function',
      source: 'config',
      id: 'support/agent',
    });
    expect(parseSubjectSpec('module:subjects/a#router')).toEqual({
      kind: 'function',
      source: 'module',
      path: 'subjects/a',
      exportName: 'router',
    });
    expect(parseSubjectSpec('replay:logs/a.jsonl#gpt-4o')).toEqual({
      kind: 'replay',
      path: 'logs/a.jsonl',
      model: 'gpt-4o',
    });
    expect(parseSubjectSpec('sim:default')).toEqual({
      kind: 'sim',
      profile: 'default',
      params: { format: 0, trunc: 0 },
    });
    expect(parseSubjectSpec('sim:retention?p=0.95&recover=0.1&format=0.05&trunc=0.02&seed=7')).toEqual({
      kind: 'sim',
      profile: 'retention',
      params: { p: 0.95, recover: 0.1, format: 0.05, trunc: 0.02, seed: 7 },
    });
    expect(parseSubjectSpec('sim:counting?cc=96')).toEqual({
      kind: 'sim',
      profile: 'counting',
      params: { cc: 96, format: 0, trunc: 0 },
    });
  });

  it.each([
    ['gpt-4o', /unknown form/],
    ['claude:opus', /unknown kind 'claude'/],
    ['sim:nonsense', /unknown sim profile 'nonsense'/],
    ['sim:retention', /'p'/],
    ['sim:retention?p=1.5', /'p'/],
    ['sim:retention?p=', /'p': needs a value/],
    ['sim:retention?p=0.9&p=0.8', /given twice/],
    ['sim:retention?p=0.9&colour=red', /unknown parameter\(s\) 'colour'/],
    ['sim:counting?cc=0', /'cc'/],
    ['sim:counting?cc=12.5', /'cc'/],
    ['sim:counting?cc', /not a key=value pair/],
    ['openai:', /model name is empty/],
    ['replay:', /replay path is empty/],
    ['replay:x.jsonl#', /model after '#' is empty/],
    ['module:', /module path is empty/],
    ['module:#x', /module path is empty/],
    ['function:', /the id is empty/],
    ['function:a b', /holds characters other than/],
    ['module:./a.ts#', /'' after '#' is not an export name/],
    ['module:./a.ts#my-export', /'my-export' after '#' is not an export name/],
  ])('rejects %s with the valid forms listed', (spec, problem) => {
    let error: unknown;
    try {
      parseSubjectSpec(spec);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SubjectSpecError);
    expect(error).toBeInstanceOf(UsageError); // → exit 2 in the CLI
    const message = (error as Error).message;
    expect(message).toMatch(problem);
    for (const form of VALID_SUBJECT_FORMS) expect(message).toContain(form);
  });

  it('never throws anything but SubjectSpecError, on any string, in linear time', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (spec) => {
        try {
          parseSubjectSpec(spec);
        } catch (error) {
          expect(error).toBeInstanceOf(SubjectSpecError);
        }
      }),
      { numRuns: 2000 },
    );
    // a 120 KB query of repeated pairs is rejected (its parse time is measured in bench/subject-suite.ts)
    const adversarial = `sim:retention?${'p=0.5&'.repeat(20_000)}`;
    expect(() => parseSubjectSpec(adversarial)).toThrow(SubjectSpecError);
  });
});

describe('createSubject / subjectFromEnv', () => {
  it('rejects an unknown subject string with SubjectSpecError', async () => {
    await expect(createSubject('gpt-5')).rejects.toBeInstanceOf(SubjectSpecError);
  });

  it('defaults to sim:default and reads CEILINGBENCH_SUBJECT', async () => {
    const fallback = await subjectFromEnv({ env: {}, resolveTask: fakeResolve });
    expect(fallback.identity).toMatchObject({
      spec: 'sim:default',
      kind: 'sim',
      parameters: { profile: 'default', seed: 0 },
    });
    const oracle = await subjectFromEnv({ env: { CEILINGBENCH_SUBJECT: 'oracle' }, resolveTask: fakeResolve });
    expect(oracle.identity.kind).toBe('oracle');
    await expect(subjectFromEnv({ env: { CEILINGBENCH_SUBJECT: 'nope' } })).rejects.toBeInstanceOf(SubjectSpecError);
  });

  it('applies a run-level seed only when the spec has none', async () => {
    const runSeeded = await createSubject('sim:default', { seed: 42, resolveTask: fakeResolve });
    expect(runSeeded.identity.parameters.seed).toBe(42);
    const specSeeded = await createSubject('sim:default?seed=3', { seed: 42, resolveTask: fakeResolve });
    expect(specSeeded.identity.parameters.seed).toBe(3);
  });

  it('needs an API key for openai subjects and never puts it in the identity', async () => {
    await expect(createSubject('openai:m', { env: {} })).rejects.toThrow(/OPENAI_API_KEY/);
    const subject = await createSubject('openai:m', {
      env: { OPENAI_API_KEY: 'sk-sentinel-0000', OPENAI_BASE_URL: 'https://example.test/v1/?key=abc' },
      cacheMode: 'off',
    });
    expect(subject.identity).toMatchObject({ kind: 'openai', model: 'm', endpoint: 'https://example.test/v1' });
    expect(JSON.stringify(subject.identity)).not.toMatch(/sentinel|abc/);
    await expect(
      createSubject('openai:m', { env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'https://user:pw@example.test/v1' } }),
    ).rejects.toThrow(/contains credentials/);
  });

  it('rejects a bad CEILINGBENCH_CACHE_MODE', async () => {
    await expect(
      createSubject('openai:m', { env: { OPENAI_API_KEY: 'k', CEILINGBENCH_CACHE_MODE: 'sometimes' } }),
    ).rejects.toThrow(/CEILINGBENCH_CACHE_MODE 'sometimes'.*read-write, read-only, off, refresh/);
  });
});

describe('openai options from the environment', () => {
  it('reads limiter and provider options, and rejects bad values naming the variable', async () => {
    const { openAiOptionsFromEnv } = await import('../../src/subjects/index.js');
    expect(
      openAiOptionsFromEnv({
        CEILINGBENCH_CONCURRENCY: '4',
        CEILINGBENCH_RPM: '60',
        CEILINGBENCH_SYSTEM_ROLE: 'merge',
        CEILINGBENCH_MAX_TOKENS_PARAM: 'max_completion_tokens',
        CEILINGBENCH_PROVIDER_SEED: '7',
      }),
    ).toEqual({
      limiter: { concurrency: 4, requestsPerMinute: 60 },
      systemRole: 'merge',
      maxTokensParam: 'max_completion_tokens',
      seed: 7,
    });
    expect(openAiOptionsFromEnv({})).toEqual({});
    expect(() => openAiOptionsFromEnv({ CEILINGBENCH_CONCURRENCY: '0' })).toThrow(/CEILINGBENCH_CONCURRENCY='0'/);
    expect(() => openAiOptionsFromEnv({ CEILINGBENCH_SYSTEM_ROLE: 'assistant' })).toThrow(UsageError);
  });
});
