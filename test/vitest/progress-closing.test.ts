import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TestCase } from 'vitest/node';
import ProgressReporter from '../../reporters/progress-reporter.js';

// Issue 42 item 7: the closing line counted skipped tests as run ("63 tests … 0 failed" with 56 skipped).

const testCase = (name: string, state: 'passed' | 'failed' | 'skipped') =>
  ({
    project: { name: 'd2' },
    fullName: name,
    name,
    meta: () => ({}),
    result: () => ({ state, errors: state === 'failed' ? [{ message: 'boom' }] : [] }),
  }) as unknown as TestCase;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the closing line of the progress reporter', () => {
  it('counts the tests that ran, the failed ones, and the skipped ones apart', () => {
    const out: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((text) => {
      out.push(String(text));
      return true;
    });
    const reporter = new ProgressReporter();
    reporter.onTestCaseResult(testCase('a', 'passed'));
    reporter.onTestCaseResult(testCase('b', 'failed'));
    for (const name of ['c', 'd', 'e']) reporter.onTestCaseResult(testCase(name, 'skipped'));
    reporter.onTestRunEnd();
    const closing = out.find((l) => l.startsWith('ceilingbench: '));
    expect(closing).toMatch(/^ceilingbench: 2 tests in .*, 1 failed, 3 skipped · /);
  });
});
