import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ProjectGates } from '../../src/config/schema.js';
import {
  type DeclaredProject,
  decideVerdict,
  deriveManifest,
  type Evidence,
  type EvidenceRecord,
  hardFailures,
} from '../../src/gates/index.js';
import type { GateResult } from '../../src/schema/gate.js';
import type { Requirement } from '../../src/schema/manifest.js';

/**
 * The one verdict (src/gates/decide.ts) over the evidence manifest (src/gates/manifest.ts): a hard gate passes only
 * on every record it needs — present, sufficient, measured by the configured subject and seed, gated at the
 * configured threshold, mode and evidence, and passing; anything needed and absent fails naming the route.
 */
const SUBJECT = 'sim:retention?p=0.95';
const OTHER = 'sim:retention?p=0.8';

/** d2: a standard grid of one retention fit; benchmarks: the user's folder with two spec files. */
const PROJECTS: DeclaredProject[] = [
  { name: 'd2', subject: SUBJECT, grid: [{ task: 'd2', fit: 'retention', variant: 'standard', profile: 'p' }] },
  { name: 'puzzles', subject: SUBJECT, grid: [{ task: 'hanoi', fit: 'collapse', levels: [1, 2, 3] }] },
  { name: 'benchmarks', subject: SUBJECT, files: ['benchmarks/registers.spec.ts', 'benchmarks/social.spec.ts'] },
];

const gateOn = (project: string, task: string, gate: string, threshold: number, passed: boolean): GateResult => ({
  project,
  task,
  gate,
  mode: 'hard',
  threshold,
  estimate: passed ? 0.95 : 0.5,
  ci95: null,
  passed,
  message: `gate ${project}.${gate} ${passed ? 'passed' : 'FAILED'} (hard): ${task}`,
});

const record = (over: Partial<EvidenceRecord> & Pick<EvidenceRecord, 'project' | 'task'>): EvidenceRecord => ({
  kind: 'retention',
  variant: 'standard',
  profile: 'p',
  sufficiency: { ok: true },
  subject: SUBJECT,
  seed: 0,
  gates: [gateOn(over.project, over.task, 'minRetention', 0.9, true)],
  ...over,
});

const decide = (configured: Record<string, ProjectGates>, evidence: Evidence, requirements?: Requirement[]) =>
  decideVerdict({
    configured,
    requirements: requirements ?? deriveManifest(configured, PROJECTS, 0),
    evidence,
    measured: evidence.records.flatMap((r) => r.gates),
    entries: [],
    seed: 0,
  });

const messages = (v: ReturnType<typeof decide>) => hardFailures(v.gates).map((g) => g.message);

/** The user's folder: registers.spec.ts holds a d2 sweep, social.spec.ts a d3 sweep (the example). */
const USER = { benchmarks: { minRetention: 0.9 } };
const bothCollected = [
  { project: 'benchmarks', file: 'benchmarks/registers.spec.ts' },
  { project: 'benchmarks', file: 'benchmarks/social.spec.ts' },
];
const fitTest = (task: string, file: string, state: string) => ({
  project: 'benchmarks',
  file,
  name: `${task} · fit N=5…50`,
  task,
  fit: 'retention' as const,
  variant: 'standard',
  profile: 'p',
  state,
  errors: [],
});
const d2Record = record({ project: 'benchmarks', task: 'd2', file: 'benchmarks/registers.spec.ts' });
const d3Record = (passed: boolean) =>
  record({
    project: 'benchmarks',
    task: 'd3',
    file: 'benchmarks/social.spec.ts',
    gates: [gateOn('benchmarks', 'd3', 'minRetention', 0.9, passed)],
  });

describe('the evidence manifest', () => {
  it('needs each grid record of the gate kind, each spec file of the user folder; advisory gates need nothing', () => {
    const needs = deriveManifest(
      {
        d2: { minRetention: 0.9, minHorizon: { value: 3, mode: 'advisory', evidence: 'point' } },
        benchmarks: { minRetention: 0.9 },
      },
      PROJECTS,
      7,
    );
    expect(needs.map((n) => [n.project, n.gate, n.task ?? n.file, n.subject, n.seed])).toEqual([
      ['d2', 'minRetention', 'd2', SUBJECT, 7],
      ['benchmarks', 'minRetention', 'benchmarks/registers.spec.ts', SUBJECT, 7],
      ['benchmarks', 'minRetention', 'benchmarks/social.spec.ts', SUBJECT, 7],
    ]);
    // a gate whose project declares nothing it reads needs a record that cannot exist
    const impossible = deriveManifest({ puzzles: { minRetention: 0.9 } }, PROJECTS, 0);
    expect(impossible.map((n) => [n.project, n.fit, n.task, n.file])).toEqual([
      ['puzzles', 'retention', undefined, undefined],
    ]);
  });
});

describe('decideVerdict: every route that drops a needed record fails, naming it', () => {
  it('the full run: passes when every fit passes, fails when one fails', () => {
    const full = { records: [d2Record, d3Record(true)], declared: [], collected: bothCollected, ran: ['benchmarks'] };
    expect(messages(decide(USER, full))).toEqual([]);
    const failing = { ...full, records: [d2Record, d3Record(false)] };
    expect(messages(decide(USER, failing))).toEqual(['gate benchmarks.minRetention FAILED (hard): d3']);
  });

  it('-t ^d2: the d3 fit test was collected and skipped — not evaluated, naming the filter', () => {
    const v = decide(USER, {
      records: [d2Record],
      declared: [
        fitTest('d2', 'benchmarks/registers.spec.ts', 'passed'),
        fitTest('d3', 'benchmarks/social.spec.ts', 'skipped'),
      ],
      collected: bothCollected,
      ran: ['benchmarks'],
      filters: '-t ^d2',
      nameFilter: '^d2',
    });
    expect(messages(v)).toEqual([
      "gate benchmarks.minRetention FAILED (hard): not evaluated — no finished record in project 'benchmarks' for d3 retention fit (variant standard): its fit test 'd3 · fit N=5…50' was skipped (the test name filter -t ^d2)",
    ]);
    expect(v.outcomes.map((o) => [o.task, o.got])).toEqual([
      ['d2', 'passed'],
      ['d3', 'not evaluated'],
    ]);
  });

  it('describe.skip (no filter): the skipped fit fails as not evaluated', () => {
    const v = decide(USER, {
      records: [d2Record],
      declared: [fitTest('d3', 'benchmarks/social.spec.ts', 'skipped')],
      collected: bothCollected,
      ran: ['benchmarks'],
    });
    expect(messages(v)[0]).toMatch(/was skipped \(describe\.skip, test\.skip, \.only or \.todo in its spec file\)/);
  });

  it('a file filter: the spec file not collected is missing as a whole', () => {
    const v = decide(USER, {
      records: [d2Record],
      declared: [fitTest('d2', 'benchmarks/registers.spec.ts', 'passed')],
      collected: [bothCollected[0]],
      ran: ['benchmarks'],
      filters: 'files registers',
    });
    expect(messages(v)).toEqual([
      "gate benchmarks.minRetention FAILED (hard): not evaluated — no finished record in project 'benchmarks' for every retention fit of spec file benchmarks/social.spec.ts: spec file benchmarks/social.spec.ts was not collected (this run's filters: files registers); needed: every retention fit of spec file benchmarks/social.spec.ts",
    ]);
  });

  it('a standard project filtered to one family fails on the others (puzzles -t sudoku)', () => {
    const projects: DeclaredProject[] = [
      {
        name: 'puzzles',
        subject: SUBJECT,
        grid: ['hanoi', 'sudoku'].map((task) => ({ task, fit: 'collapse' as const, levels: [1, 2] })),
      },
    ];
    const configured = { puzzles: { collapseNoEarlierThan: 2 } };
    const sudoku = record({
      project: 'puzzles',
      task: 'sudoku',
      kind: 'collapse',
      levels: [1, 2],
      gates: [gateOn('puzzles', 'sudoku', 'collapseNoEarlierThan', 2, true)],
    });
    const v = decide(
      configured,
      {
        records: [sudoku],
        declared: [{ ...fitTest('hanoi', 'puzzles/hanoi.spec.ts', 'skipped'), project: 'puzzles', fit: 'collapse' }],
        collected: [{ project: 'puzzles', file: 'x' }],
        ran: ['puzzles'],
        filters: '-t sudoku',
        nameFilter: 'sudoku',
      },
      deriveManifest(configured, projects, 0),
    );
    expect(messages(v)).toHaveLength(1);
    expect(messages(v)[0]).toMatch(
      /hanoi collapse fit \(levels 1…2\): its fit test .* was skipped \(the test name filter -t sudoku\)/,
    );
    // a partial record (a level missing) is not evaluated either
    const partial = decide(
      configured,
      {
        records: [sudoku, { ...sudoku, task: 'hanoi', levels: [1] }],
        ran: ['puzzles'],
      },
      deriveManifest(configured, projects, 0),
    );
    expect(messages(partial)[0]).toMatch(
      /hanoi collapse fit \(levels 1…2\) in project 'puzzles' is partial: levels 2 missing/,
    );
  });

  it('merges: a record measured by another subject, seed or evidence is not the configured gate', () => {
    const d2 = { d2: { minRetention: 0.9 } };
    const ok = record({ project: 'd2', task: 'd2' });
    expect(messages(decide(d2, { records: [ok], ran: ['d2'] }))).toEqual([]);
    expect(messages(decide(d2, { records: [{ ...ok, subject: OTHER }], ran: ['d2'] }))[0]).toContain(
      `was measured by subject '${OTHER}', not the configured '${SUBJECT}'`,
    );
    expect(messages(decide(d2, { records: [{ ...ok, seed: 3 }], ran: ['d2'] }))[0]).toContain(
      'measured with seed 3, not the configured 0',
    );
    const lower = { d2: { minRetention: { value: 0.9, mode: 'hard' as const, evidence: 'lower' as const } } };
    expect(messages(decide(lower, { records: [ok], ran: ['d2'] }))[0]).toContain(
      "evaluated on the point estimate, not the configured CI lower bound (evidence: 'lower')",
    );
    expect(
      messages(
        decide(d2, { records: [{ ...ok, sufficiency: { ok: false, why: 'insufficient data (x)' } }], ran: ['d2'] }),
      )[0],
    ).toContain('insufficient data (x)');
  });

  it("a sweep the spec file gave its own subject is judged on that subject's record", () => {
    const own = 'function:support-agent';
    const evidence = (subject: string): Evidence => ({
      records: [
        { ...d2Record, subject },
        { ...d3Record(true), subject: own },
      ],
      declared: [
        fitTest('d2', 'benchmarks/registers.spec.ts', 'passed'),
        { ...fitTest('d3', 'benchmarks/social.spec.ts', 'passed'), subject: own },
      ],
      collected: bothCollected,
      ran: ['benchmarks'],
    });
    expect(messages(decide(USER, evidence(SUBJECT)))).toEqual([]);
    // the run's other sweep still needs the run's subject
    expect(messages(decide(USER, evidence(own)))[0]).toContain(`was measured by subject '${own}'`);
  });

  it('never passes unchecked, and removing any needed record from a passing run fails it (properties)', () => {
    const configured = fc.record(
      {
        d2: fc.constant({ minRetention: 0.9 } as ProjectGates),
        benchmarks: fc.constant({ minRetention: 0.9 } as ProjectGates),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(configured, fc.subarray(['d2', 'd3', 'b2']), fc.boolean(), (gates, present, withFilters) => {
        const all = [record({ project: 'd2', task: 'd2' }), { ...d2Record }, d3Record(true)];
        const keep = all.filter((_, i) => present.includes(['d2', 'b2', 'd3'][i]));
        const evidence: Evidence = {
          records: keep,
          collected: bothCollected,
          declared: [
            fitTest('d2', 'benchmarks/registers.spec.ts', present.includes('b2') ? 'passed' : 'skipped'),
            fitTest('d3', 'benchmarks/social.spec.ts', present.includes('d3') ? 'passed' : 'skipped'),
          ],
          ran: ['d2', 'benchmarks'],
          ...(withFilters ? { filters: '-t x' } : {}),
        };
        const needed = [...(gates.d2 ? ['d2'] : []), ...(gates.benchmarks ? ['b2', 'd3'] : [])];
        const passes = messages(decide(gates as Record<string, ProjectGates>, evidence)).length === 0;
        expect(passes).toBe(needed.every((n) => present.includes(n)));
      }),
      { numRuns: 200 },
    );
  });
});
