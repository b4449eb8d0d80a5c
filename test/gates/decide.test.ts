import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nearestNames } from '../../src/config/nearest-names.js';
import type { ProjectGates } from '../../src/config/schema.js';
import {
  configuredGatesOf,
  decideRunGates,
  gateKeyCovers,
  hardFailures,
  unknownGateKeys,
} from '../../src/gates/index.js';
import type { GateResult } from '../../src/schema/gate.js';

const PROJECTS = ['d1', 'd2', 'd3', 'puzzles', 'scc', 'd2@a', 'd2@b', 'benchmarks'];
const THRESHOLD = [
  'minRetention',
  'minHorizon',
  'maxTfbcRate',
  'collapseNoEarlierThan',
  'minCountingCapacity',
] as const;

const gateValue = fc.oneof(
  fc.double({ min: 0, max: 1, noNaN: true }),
  fc.record({
    value: fc.double({ min: 0, max: 1, noNaN: true }),
    mode: fc.constantFrom('hard' as const, 'advisory' as const),
    evidence: fc.constantFrom('point' as const, 'lower' as const),
  }),
);
const projectGates: fc.Arbitrary<ProjectGates> = fc
  .subarray([...THRESHOLD], { minLength: 1 })
  .chain((names) => fc.tuple(...names.map((n) => gateValue.map((v) => [n, v] as const))))
  .map((pairs) => Object.fromEntries(pairs) as ProjectGates);

/** A run: configured gates keyed by project (or standard project), the declared and ran projects, the results the tests evaluated. */
const runs = fc
  .record({
    configured: fc.dictionary(fc.constantFrom('d1', 'd2', 'd3', 'scc', 'benchmarks'), projectGates, { maxKeys: 3 }),
    declared: fc.subarray(PROJECTS),
    ranShare: fc.subarray(PROJECTS),
    seed: fc.integer({ min: 0, max: 1000 }),
  })
  .chain(({ configured, declared, ranShare, seed }) => {
    const ran = ranShare.filter((p) => declared.includes(p));
    // the tests evaluated some configured threshold gates of projects that ran, passing or failing each
    const possible = Object.entries(configured).flatMap(([key, gates]) =>
      ran
        .filter((p) => gateKeyCovers(key, p))
        .flatMap((project) =>
          configuredGatesOf(gates).map((g) => ({ project, gate: g.name, mode: g.mode, value: g.value })),
        ),
    );
    return fc
      .subarray(possible)
      .chain((done) =>
        fc.tuple(fc.constant(done), fc.array(fc.boolean(), { minLength: done.length, maxLength: done.length })),
      )
      .map(([done, passes]) => ({
        configured,
        declared,
        ran,
        seed,
        measured: done.map(
          (d, i): GateResult => ({
            project: d.project,
            task: 'd2',
            gate: d.gate,
            mode: d.mode,
            threshold: d.value,
            estimate: 0.5,
            ci95: null,
            passed: passes[i],
            message: `gate ${d.project}.${d.gate} ${passes[i] ? 'passed' : 'FAILED'}`,
          }),
        ),
      }));
  });

describe('decideRunGates (the one verdict, whatever the route)', () => {
  it('fails iff a hard gate failed or a configured hard gate of a declared or ran project has no result', () => {
    fc.assert(
      fc.property(runs, ({ configured, declared, ran, seed, measured }) => {
        const gates = decideRunGates({ configured, entries: [], measured, scope: { declared, ran }, seed });
        const projects = [...new Set([...declared, ...ran])];
        const expectedUnchecked = Object.entries(configured).flatMap(([key, pg]) => {
          const covered = projects.filter((p) => gateKeyCovers(key, p));
          return configuredGatesOf(pg)
            .filter((g) => g.mode === 'hard')
            .flatMap((g) =>
              (covered.length > 0 ? covered : [key]).filter(
                (p) => !measured.some((m) => m.project === p && m.gate === g.name),
              ),
            );
        });
        const failedMeasured = measured.filter((m) => m.mode === 'hard' && !m.passed);
        expect(hardFailures(gates).length).toBe(failedMeasured.length + expectedUnchecked.length);
        // every configured hard gate is decided for every project its key covers: a result, never silence
        for (const [key, pg] of Object.entries(configured)) {
          const covered = projects.filter((p) => gateKeyCovers(key, p));
          for (const g of configuredGatesOf(pg).filter((x) => x.mode === 'hard'))
            for (const p of covered.length > 0 ? covered : [key])
              expect(gates.filter((r) => r.project === p && r.gate === g.name)).toHaveLength(1);
        }
        // an advisory gate never fails a run
        expect(hardFailures(gates).every((g) => g.mode === 'hard')).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('says why a gate was not evaluated: its project did not run, or nothing it reads finished', () => {
    const gates = decideRunGates({
      configured: { d1: { minRetention: 0.9 }, d2: { minHorizon: 5 } },
      entries: [],
      measured: [],
      scope: { declared: ['d1', 'd2'], ran: ['d2'], filters: '-t canonical' },
      seed: 0,
    });
    expect(gates.map((g) => g.message)).toEqual([
      "gate d1.minRetention FAILED (hard): not evaluated — project 'd1' did not run (this run's filters: -t canonical); run it, or make the gate advisory ({ value: 0.9, mode: 'advisory' })",
      "gate d2.minHorizon FAILED (hard): not evaluated — no finished record in project 'd2' that this gate applies to (check the gate name and that the fit test ran; this run's filters: -t canonical)",
    ]);
  });
  it('a result at another threshold or mode is not the configured gate (blobs merged under other gates)', () => {
    const measured = (threshold: number, mode: 'hard' | 'advisory'): GateResult => ({
      project: 'd2',
      task: 'd2',
      gate: 'minRetention',
      mode,
      threshold,
      estimate: 0.97,
      ci95: null,
      passed: true,
      message: `gate d2.minRetention passed (${mode})`,
    });
    const decide = (result: GateResult) =>
      decideRunGates({
        configured: { d2: { minRetention: 0.99 } },
        entries: [],
        measured: [result],
        scope: { declared: ['d2'], ran: ['d2'] },
        seed: 0,
      });
    expect(hardFailures(decide(measured(0.99, 'hard')))).toEqual([]);
    // a `d2@<label>` key's gate wins over the `d2` key's for that subject: its result is not a mismatch
    const perSubject = (project: string, threshold: number): GateResult => ({
      ...measured(threshold, 'hard'),
      project,
    });
    const layered = decideRunGates({
      configured: { d2: { minRetention: 0.5 }, 'd2@a': { minRetention: 0.99 } },
      entries: [],
      measured: [perSubject('d2@a', 0.99), perSubject('d2@b', 0.5)],
      scope: { declared: ['d2@a', 'd2@b'], ran: ['d2@a', 'd2@b'] },
      seed: 0,
    });
    expect(hardFailures(layered)).toEqual([]);
    const stale = decideRunGates({
      configured: { d2: { minRetention: 0.5 }, 'd2@a': { minRetention: 0.99 } },
      entries: [],
      measured: [perSubject('d2@a', 0.5), perSubject('d2@b', 0.5)],
      scope: { declared: ['d2@a', 'd2@b'], ran: ['d2@a', 'd2@b'] },
      seed: 0,
    });
    expect(hardFailures(stale).map((g) => [g.project, g.threshold])).toEqual([['d2@a', 0.99]]);

    for (const other of [measured(0.95, 'hard'), measured(0.99, 'advisory')]) {
      const failed = hardFailures(decide(other));
      expect(failed).toHaveLength(1);
      expect(failed[0]?.message).toContain(
        `not evaluated at this threshold — the tests that wrote these results evaluated it at ${other.threshold} (${other.mode})`,
      );
    }
  });
});

describe('gate keys', () => {
  it('a key naming no project of the configuration is named with the projects it could mean', () => {
    expect(unknownGateKeys({ D2: { minRetention: 0.9 } }, ['d1', 'd2', 'd3'])).toEqual([
      "gates: 'D2' names no project of this configuration (projects: d1, d2, d3) — did you mean 'd2'? Gates are keyed by Vitest project name",
    ]);
    expect(unknownGateKeys({ d2: { minRetention: 0.9 } }, ['d2@a', 'd2@b'])).toEqual([]);
    expect(nearestNames('benchmark', ['benchmarks', 'd1'])).toEqual(['benchmarks']);
    expect(nearestNames('zzzz', ['d1', 'd2'])).toEqual([]);
  });

  it('every key is known iff it covers a known project (property)', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.constant({ minRetention: 0.9 } as ProjectGates)),
        fc.subarray(PROJECTS),
        (gates, known) => {
          const unknown = unknownGateKeys(gates, known);
          const expected = Object.keys(gates).filter((k) => !known.some((p) => gateKeyCovers(k, p)));
          expect(unknown).toHaveLength(expected.length);
        },
      ),
    );
  });
});
