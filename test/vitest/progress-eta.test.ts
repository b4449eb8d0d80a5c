import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TestCase, TestModule, TestSpecification } from 'vitest/node';
import { EtaClock, formatDuration } from '../../reporters/progress-eta.js';
import ProgressReporter from '../../reporters/progress-reporter.js';
import { cell } from '../support/records.js';

describe('formatDuration', () => {
  it('rounds once: never 2m60s, minutes and hours zero-padded', () => {
    expect(formatDuration(179_600)).toBe('3m00s');
    expect(formatDuration(59_400)).toBe('59s');
    expect(formatDuration(59_600)).toBe('1m00s');
    expect(formatDuration(2_744_000)).toBe('45m44s');
    expect(formatDuration(3_900_000)).toBe('1h05m');
    expect(formatDuration(-5)).toBe('0s');
  });
});

describe('the ETA: trials still to ask × the measured time per request', () => {
  it('is unknown until a request was sent, however many tests (fits, cached cells) finished', () => {
    let now = 0;
    const clock = new EtaClock(() => now);
    clock.plan('c1', 40);
    clock.plan('c2', 40);
    clock.plan('fit', 0);
    now = 100_000; // three 100-second requests out, nothing back: no figure rather than "0s"
    expect(clock.eta()).toBe('ETA –');
    clock.finish('fit', 0);
    expect(clock.eta()).toBe('ETA –');
    clock.finish('c1', 0); // answered from the cache: no time measured
    expect(clock.eta()).toBe('ETA –');
    now = 200_000;
    clock.finish('c2', 0);
    expect(clock.eta()).toBe('ETA 0s'); // nothing left to ask
  });

  it('scales the trials left by the time per request sent, skipped and cached tests moving nothing', () => {
    let now = 0;
    const clock = new EtaClock(() => now);
    for (const id of ['a', 'b', 'c', 'd']) clock.plan(id, 10);
    clock.plan('a', 10); // a test reported twice is planned once
    now = 50_000;
    clock.finish('a', 10); // 10 requests in 50 s: 5 s each
    expect(clock.eta()).toBe(`ETA ${formatDuration(30 * 5_000)}`);
    clock.finish('b', 0); // skipped by a filter: asks nothing
    expect(clock.eta()).toBe(`ETA ${formatDuration(20 * 5_000)}`);
  });
});

/** A test as the progress reporter reads it. */
function fakeTest(id: string, state: 'passed' | 'skipped' | 'failed', meta: object = {}, trials?: number) {
  return {
    id,
    name: id,
    fullName: id,
    project: { name: 'd2' },
    meta: () => ({ ...meta, ...(trials === undefined ? {} : { ceilingbenchTrials: trials }) }),
    result: () => ({ state, errors: [] }),
  } as unknown as TestCase;
}
const fakeModule = (tests: TestCase[]) => ({ children: { allTests: () => tests.values() } }) as unknown as TestModule;

describe('the progress line', () => {
  afterEach(() => vi.restoreAllMocks());

  it('shows a skipped test as skipped, and marks its total a lower bound until every module is collected', () => {
    const out: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((text) => {
      out.push(String(text));
      return true;
    });
    vi.stubEnv('CI', 'true');
    const reporter = new ProgressReporter();
    reporter.onTestRunStart([{}, {}] as unknown as TestSpecification[]);
    const sent = fakeTest(
      'N=5',
      'passed',
      {
        ceilingbench: { record: cell({ n: 4, cacheHits: 0, trials: [] }), gates: [], subject: { spec: 'sim:default' } },
      },
      4,
    );
    const skipped = fakeTest('N=10', 'skipped', {}, 4);
    reporter.onTestModuleCollected(fakeModule([sent, skipped]));
    reporter.onTestCaseResult(skipped);
    reporter.onTestModuleCollected(fakeModule([fakeTest('fit', 'passed')]));
    reporter.onTestCaseResult(sent);
    reporter.onTestRunEnd();
    vi.unstubAllEnvs();
    expect(out[0]).toMatch(/^\[1\/2\+\] skip d2 › N=10 · .* · ETA –\n$/);
    expect(out[1]).toMatch(/^\[2\/3\] ok d2 › N=5 — accuracy .* · ETA 0s\n$/);
    expect(out.at(-1)).toMatch(/^ceilingbench: 1 tests in \d+s, 0 failed, 1 skipped · /);
  });
});
