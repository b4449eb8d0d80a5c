import type { CAC } from 'cac';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { runCli } from '../../src/cli/program.js';
import { formatZodError } from '../../src/config/errors.js';
import {
  BatchUnsupportedError,
  CeilingbenchError,
  ConfigError,
  CountInputError,
  ERROR_CODES,
  type ErrorCode,
  EXIT,
  errorCodeOf,
  LimiterAbortError,
  SccFatalError,
  UsageError,
} from '../../src/errors.js';
import { parseSubjectSpec } from '../../src/subjects/spec.js';
import { resolveTask } from '../../src/tasks/registry.js';
import { reloadModulesAfterThisFile } from '../support/shared-worker.js';

// The worker may hold the real modules from an earlier file: drop them before this file's imports load (hoisted
// above them, as the mock is), and again after it.
vi.hoisted(() => vi.resetModules());
afterAll(() => vi.doUnmock('../../src/cli/commands/index.js'));
reloadModulesAfterThisFile();

// One command, `throw <code>`, that throws a CeilingbenchError with that code.
vi.mock('../../src/cli/commands/index.js', async () => {
  const errors = await import('../../src/errors.js');
  const lazy = (usage: string, description: string, register: (cli: CAC) => void) => ({
    name: usage.split(' ')[0],
    usage,
    description,
    load: async () => register,
  });
  return {
    commands: [
      lazy('throw <code>', 'throws', (cli) => {
        cli.command('throw <code>', 'throws').action((code: ErrorCode) => {
          throw new errors.CeilingbenchError(code, `thrown with ${code}`);
        });
      }),
      // What a second copy of src/errors.ts throws (Vitest's module runner loads one for the reporter and the
      // config): same name and code, another class.
      lazy('foreign <code>', 'throws a look-alike', (cli) => {
        cli.command('foreign <code>', 'throws a look-alike').action((code: string) => {
          throw Object.assign(new Error(`look-alike with ${code}`), { name: 'ConfigError', code });
        });
      }),
    ],
  };
});

const CODES = Object.keys(ERROR_CODES) as ErrorCode[];
const EXIT_CODES: readonly number[] = Object.values(EXIT);

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('the error table', () => {
  it.each(CODES)('%s has an exit code of the CLI', (code) => {
    expect(EXIT_CODES).toContain(ERROR_CODES[code].exit);
    expect(ERROR_CODES[code].exit).not.toBe(EXIT.ok);
  });

  it.each([
    ['UsageError', new UsageError('x'), 'CB_USAGE'],
    ['ConfigError', new ConfigError('x'), 'CB_CONFIG'],
    ['ConfigError', formatZodError('f', z.object({ a: z.number() }).safeParse({}).error as z.ZodError), 'CB_CONFIG'],
    ['CountInputError', new CountInputError('x'), 'CB_COUNT_INPUT'],
    ['SccFatalError', new SccFatalError('x'), 'CB_SCC_FATAL'],
    ['BatchUnsupportedError', new BatchUnsupportedError('x'), 'CB_BATCH_UNSUPPORTED'],
    ['LimiterAbortError', new LimiterAbortError(), 'CB_LIMITER_ABORTED'],
    ['SubjectSpecError', thrown(() => parseSubjectSpec('nope:')), 'CB_SUBJECT_SPEC'],
    ['UnknownTaskError', thrown(() => resolveTask('d99')), 'CB_UNKNOWN_TASK'],
  ] as const)('%s keeps its name and carries code %s', (name, error, code) => {
    expect(error).toBeInstanceOf(CeilingbenchError);
    expect((error as CeilingbenchError).name).toBe(name);
    expect((error as CeilingbenchError).code).toBe(code);
    expect((error as CeilingbenchError).exitCode).toBe(ERROR_CODES[code].exit);
  });
});

describe('the CLI maps an error by its code', () => {
  it.each(CODES)('a CeilingbenchError with %s exits with its exit code and prints its message', async (code) => {
    const err: string[] = [];
    const exit = await runCli(['throw', code], { stdout: () => {}, stderr: (t) => err.push(t) });
    expect(exit).toBe(ERROR_CODES[code].exit);
    expect(err.join('')).toBe(`ceilingbench: thrown with ${code}\n`);
  });
});

describe('the CLI maps an error by its code, not by its class', () => {
  it.each(CODES)('an error from another copy of the error module with %s exits with its exit code', async (code) => {
    const err: string[] = [];
    const exit = await runCli(['foreign', code], { stdout: () => {}, stderr: (t) => err.push(t) });
    expect(exit).toBe(ERROR_CODES[code].exit);
    expect(err.join('')).toBe(`ceilingbench: look-alike with ${code}\n`);
  });

  it('rethrows an error whose code is not ours (the caller reports it as internal, exit 70)', async () => {
    await expect(runCli(['foreign', 'ENOENT'], { stdout: () => {}, stderr: () => {} })).rejects.toThrow(
      'look-alike with ENOENT',
    );
    expect(errorCodeOf(Object.assign(new Error('x'), { code: 'toString' }))).toBeUndefined();
    expect(errorCodeOf({ code: 'CB_USAGE', message: 'not an Error' })).toBeUndefined();
    expect(errorCodeOf(new ConfigError('x'))).toBe('CB_CONFIG');
  });
});
