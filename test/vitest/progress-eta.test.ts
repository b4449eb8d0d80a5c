import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TestCase, TestModule, TestSpecification } from 'vitest/node';
import { EtaClock, formatDuration } from '../../reporters/progress-eta.js';
import ProgressReporter from '../../reporters/progress-reporter.js';
import { SPECS_DIR } from '../../src/vitest/files.js';
import { shippedSpecTests } from '../../src/vitest/spec-tests.js';
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
    // a filter's skip is known at collection (the test's mode), before the test is reported
    options: { mode: state === 'skipped' ? 'skip' : 'run' },
    result: () => ({ state, errors: [] }),
  } as unknown as TestCase;
}
const D2 = { name: 'd2', getProvidedContext: () => ({ ceilingbench: { design: { kind: 'grid' }, trials: 4 } }) };
const OWN = {
  name: 'benchmarks',
  getProvidedContext: () => ({ ceilingbench: { design: { kind: 'grid' }, trials: 4 } }),
};
const fakeSpec = (project: object, moduleId: string) => ({ project, moduleId }) as unknown as TestSpecification;
const fakeModule = (tests: TestCase[], project: object = OWN, moduleId = '/repo/benchmarks/own.spec.ts') =>
  ({ project, moduleId, children: { allTests: () => tests.values() } }) as unknown as TestModule;

/** The progress reporter's lines, written in CI mode (one line per test). */
function captured(): string[] {
  const out: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((text) => {
    out.push(String(text));
    return true;
  });
  vi.stubEnv('CI', 'true');
  return out;
}

describe('the progress line', () => {
  afterEach(() => vi.restoreAllMocks());

  it('shows a skipped test as skipped, and marks its total a lower bound while a spec file of the user’s is not collected (and says so)', () => {
    const out = captured();
    const reporter = new ProgressReporter();
    reporter.onTestRunStart([
      fakeSpec(OWN, '/repo/benchmarks/own.spec.ts'),
      fakeSpec(OWN, '/repo/benchmarks/other.spec.ts'),
    ]);
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
    reporter.onTestModuleCollected(fakeModule([fakeTest('fit', 'passed')], OWN, '/repo/benchmarks/other.spec.ts'));
    reporter.onTestCaseResult(sent);
    reporter.onTestRunEnd();
    vi.unstubAllEnvs();
    expect(out[0]).toBe(
      'ceilingbench: the tests of 2 test file(s) of your own are counted as Vitest collects them: the total reads 0+ until then\n',
    );
    expect(out[1]).toMatch(/^\[1\/2\+\] skip d2 › N=10 · .* · ETA –\n$/);
    expect(out[2]).toMatch(/^\[2\/3\] ok d2 › N=5 — accuracy .* · ETA 0s\n$/);
    expect(out.at(-1)).toMatch(/^ceilingbench: 1 tests in \d+s, 0 failed, 1 skipped · /);
  });

  it('knows the total of a shipped spec file before Vitest collects it, and its trials for the ETA', () => {
    const out = captured();
    let now = 0;
    vi.spyOn(Date, 'now').mockImplementation(() => now);
    const retention = join(SPECS_DIR, 'd2', 'retention.spec.ts');
    const reporter = new ProgressReporter();
    reporter.onTestRunStart([fakeSpec(D2, retention), fakeSpec(OWN, '/repo/benchmarks/own.spec.ts')]);
    // the user's file, collected first, with one cell of 4 trials; d2's ten cells and its fit are known already
    const own = fakeTest(
      'own',
      'passed',
      {
        ceilingbench: { record: cell({ n: 4, cacheHits: 0, trials: [] }), gates: [], subject: { spec: 'sim:default' } },
      },
      4,
    );
    reporter.onTestModuleCollected(fakeModule([own]));
    now = 8_000; // 4 requests in 8 s: 2 s each, and d2's 10 × 4 trials still to ask
    reporter.onTestCaseResult(own);
    // d2's file collected: the same 11 tests, the total unchanged; a filter skips them all: nothing left to ask
    const d2 = Array.from({ length: 11 }, (_, i) => fakeTest(`d2 ${i}`, 'skipped', {}, i < 10 ? 4 : 0));
    reporter.onTestModuleCollected(fakeModule(d2, D2, retention));
    reporter.onTestCaseResult(d2[0]);
    vi.unstubAllEnvs();
    expect(out[0]).toMatch(/the total reads 11\+ until then \(the standard grids' 11 are known now\)\n$/);
    expect(out[1]).toMatch(/^\[1\/12\] ok d2 › own — .* · ETA 1m20s\n$/);
    expect(out[2]).toMatch(/^\[2\/12\] skip d2 › d2 0 · .* · ETA 0s\n$/);
  });
});

describe('the tests a shipped spec file declares (src/vitest/spec-tests.ts)', () => {
  const grid = { design: { kind: 'grid' as const }, trials: 40, subjects: 1 };
  const at = (project: string, file: string) => join(SPECS_DIR, project, file);

  it('a grid sweep: a test per level and the fit; the ablation: a test per variant and McNemar; an assay: one', () => {
    expect(shippedSpecTests(at('d2', 'retention.spec.ts'), grid)).toEqual({ tests: 11, trials: 400 });
    expect(shippedSpecTests(at('d3', 'ablation.spec.js'), grid)).toEqual({ tests: 6, trials: 200 });
    expect(shippedSpecTests(at('puzzles', 'hanoi.spec.js'), grid)).toEqual({ tests: 7, trials: 240 });
    expect(shippedSpecTests(at('scc', 'motif.spec.ts'), grid)).toEqual({ tests: 1, trials: 0 });
  });

  it('the adaptive and sequential designs: one test per depth sweep, none planned; the puzzles keep their grid', () => {
    for (const kind of ['adaptive', 'sequential'] as const) {
      const design = { ...grid, design: { kind }, subjects: 3 };
      expect(shippedSpecTests(at('d1', 'retention.spec.ts'), design)).toEqual({ tests: 3, trials: 0 });
      expect(shippedSpecTests(at('puzzles', 'sudoku.spec.ts'), design)).toEqual({ tests: 21, trials: 720 });
    }
  });

  it('any other file: not known before it is collected', () => {
    expect(shippedSpecTests('/repo/benchmarks/registers.spec.ts', grid)).toBeUndefined();
    expect(shippedSpecTests(at('d2', 'notes.spec.ts'), grid)).toBeUndefined();
    expect(shippedSpecTests(join(SPECS_DIR, 'retention.spec.ts'), grid)).toBeUndefined();
  });
});
