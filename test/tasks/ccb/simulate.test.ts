import { describe, expect, it } from 'vitest';
import { PyRandom } from '../../../src/rng/index.js';
import type { CcbInstance } from '../../../src/tasks/ccb/index.js';
import type { CcbOutcome } from '../../../src/tasks/outcome.js';
import { resolveTask } from '../../../src/tasks/registry.js';
import type { AnyTaskPlugin } from '../../../src/tasks/task.js';

// Erased plugin types, as the registry hands them out.
const d1Task: AnyTaskPlugin = resolveTask('d1');
const d2Task: AnyTaskPlugin = resolveTask('d2');
const d3Task: AnyTaskPlugin = resolveTask('d3');

/** |observed − n·q| within 5 binomial standard deviations (runs are seeded, so this is deterministic). */
function expectBinomial(observed: number, n: number, q: number, label: string) {
  const sd = Math.sqrt(n * q * (1 - q));
  expect(
    Math.abs(observed - n * q),
    `${label}: ${observed} of ${n}, expected ${(n * q).toFixed(1)} ± ${sd.toFixed(1)}`,
  ).toBeLessThan(5 * sd + 1e-9);
}

function run(
  task: AnyTaskPlugin,
  n: number,
  depth: number,
  retention: number,
  recover: number,
  profile = 'official',
  query = false,
) {
  const outcomes: CcbOutcome[] = [];
  for (let i = 0; i < n; i++) {
    const seed = 700000 + i;
    const instance = task.generate(new PyRandom(seed), depth, {
      seed,
      profile,
      ...(query ? { query } : {}),
    }) as CcbInstance;
    const text = task.simulate(instance, new PyRandom(31 * i + 5), { retention, recover, capacity: 0 });
    outcomes.push(task.grade(instance, text) as CcbOutcome);
  }
  return outcomes;
}

describe('simulate: P(correct | N) = p^N, k* at the first slip, TFBC via recover', () => {
  const n = 2000;
  const p = 0.9;
  const depth = 5;
  const cases = [
    ['d1', d1Task, 'official', false],
    ['d2', d2Task, 'official', false],
    ['d2 paper', d2Task, 'paper', false],
    ['d3', d3Task, 'official', false],
    ['d3 query', d3Task, 'paper', true],
  ] as const;

  for (const [label, task, profile, query] of cases) {
    it(`${label}: recover = 0 → accuracy ≈ 0.9^5, never TFBC, k*=1 with probability 1 − p`, () => {
      const outcomes = run(task, n, depth, p, 0, profile, query);
      const correct = outcomes.filter((o) => o.kind === 'correct');
      expectBinomial(correct.length, n, p ** depth, `${label} accuracy`);
      expect(correct.every((o) => o.kStar === -1 && !o.tfbc)).toBe(true);
      expect(outcomes.filter((o) => o.kind !== 'correct').every((o) => o.kStar >= 1)).toBe(true);
      expectBinomial(outcomes.filter((o) => o.kStar === 1).length, n, 1 - p, `${label} k*=1`);
      expectBinomial(outcomes.filter((o) => o.kStar === 3).length, n, p * p * (1 - p), `${label} k*=3`);
      expect(outcomes.every((o) => o.kind === 'correct' || o.kind === 'reasoning' || o.kind === 'constraint')).toBe(
        true,
      );
    });
  }

  it('recover = 0.5 → accuracy p^N + (1 − p^N)/2, and every recovered trial is TFBC', () => {
    const outcomes = run(d2Task, n, depth, p, 0.5);
    const q = p ** depth;
    expectBinomial(outcomes.filter((o) => o.kind === 'correct').length, n, q + (1 - q) / 2, 'accuracy');
    expectBinomial(outcomes.filter((o) => o.tfbc).length, n, (1 - q) / 2, 'TFBC');
  });

  it('retention 0.9 at N = 20 in D1: accuracy ≈ 0.9^20', () => {
    const outcomes = run(d1Task, 1500, 20, p, 0);
    expectBinomial(outcomes.filter((o) => o.kind === 'correct').length, 1500, p ** 20, 'accuracy');
  });

  it('paper D2 slips include illegal re-assignments, graded as constraint; official never is', () => {
    const paper = run(d2Task, 400, 10, 0.7, 0, 'paper');
    expect(paper.filter((o) => o.kind === 'constraint').length).toBeGreaterThan(20);
    const official = run(d2Task, 400, 10, 0.7, 0, 'official');
    expect(official.filter((o) => o.kind === 'constraint')).toHaveLength(0);
  });

  it('the same rng seed gives the same response (determinism)', () => {
    const instance = d3Task.generate(new PyRandom(150000), 15, { seed: 150000 });
    const a = d3Task.simulate(instance, new PyRandom(9), { retention: 0.8, recover: 0.2, capacity: 0 });
    const b = d3Task.simulate(instance, new PyRandom(9), { retention: 0.8, recover: 0.2, capacity: 0 });
    expect(a).toBe(b);
  });
});
