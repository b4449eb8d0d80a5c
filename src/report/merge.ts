import { buildLeaderboard, type LeaderboardOptions, type LeaderboardSubject } from '../leaderboard/index.js';
import type { CellResult } from '../schema/cell.js';
import type { Leaderboard } from '../schema/leaderboard.js';
import type { Report, Spend, SpendTotals } from '../schema/report.js';
import type { SubjectIdentity } from '../schema/subject.js';
import { reportSummary, type TestEntry } from './build.js';
import { addSpend } from './spend.js';

/**
 * Merging separate runs (`ceilingbench report a.json b.json …`): one report and one leaderboard from runs made
 * apart (one CI job per model). Pure: reports in, a report out; reading the files is the CLI's.
 *
 * Rules:
 * - Attribution: a record's subject is its `subject` field (stamped in multi-subject runs), else the run's only
 *   subject (`report.subjects[0].spec`). A report with several subjects whose records do not say which answered
 *   them cannot be merged (an error).
 * - The same subject in two inputs: with different run seeds they stay apart (labelled `spec (seed S)` on the
 *   leaderboard, and unpaired); with the same run seed they are one subject whose records are united — shards of
 *   one run — provided no record is in both (the same cell, fit, puzzle or SCC task twice is an error).
 * - Pairing between two runs is stated per pair of inputs: paired when they share cells and every shared cell
 *   has the same trial count and the same instance seeds (and the run seeds agree); otherwise why not. The
 *   leaderboard checks the trials again per comparison and falls back to unpaired tests with its own reason.
 * - The merged report: records of every input, each stamped with its subject, in report order; subjects,
 *   projects and gates united; summary recomputed; spend summed (absent when an input has none; the spending
 *   limit of each run is not carried over); seed and git sha kept when all inputs agree, else null; timing from
 *   the earliest start to the latest finish, `durationMs` the sum of the runs' durations.
 * - The leaderboard: buildLeaderboard over the subjects in spec order (then run seed), its bootstrap rooted at the
 *   runs' common seed (0 when they differ) — as one run with several subjects builds it, so the same records
 *   merged give the same leaderboard.
 */

export interface MergeInput {
  /** How the input is named in messages (the path as given). */
  name: string;
  report: Report;
}

/** Whether two inputs used the same instances, and the line that says so. */
export interface RunPairing {
  a: string;
  b: string;
  /** null: the runs share no cell (nothing to pair; e.g. SCC records, which compare ladder bounds). */
  paired: boolean | null;
  text: string;
}

export interface MergeOptions extends LeaderboardOptions {
  /** The merging tool's version (report.tool.version). */
  version: string;
}

export interface MergeResult {
  report: Report;
  leaderboard: Leaderboard;
  runs: RunPairing[];
  /** Unpaired leaderboard comparisons with the leaderboard's reason, one line each. */
  unpaired: string[];
}

type AnyRecord =
  | Report['cells'][number]
  | Report['fits'][number]
  | Report['collapse'][number]
  | Report['ablations'][number]
  | Report['scc'][number]
  | Report['sccAssays'][number];

/** The record's subject: its own field, else the run's only subject. */
function subjectOfRecord(input: MergeInput, record: AnyRecord): string {
  if (record.subject !== undefined) return record.subject;
  const { subjects } = input.report;
  if (subjects.length === 1) return subjects[0].spec;
  throw new RangeError(
    subjects.length === 0
      ? `${input.name}: the report names no subject, so its records cannot be attributed`
      : `${input.name}: the report holds ${subjects.length} subjects (${subjects.map((s) => s.spec).join(', ')}) but its ${record.kind} record ${record.project}/${record.task} does not say which answered it; rerun it with this version of ceilingbench`,
  );
}

/** The identity of a record within one subject: two records with the same key are the same measurement. */
function recordKeyOf(r: AnyRecord): string {
  switch (r.kind) {
    case 'cell':
      return `cell ${r.project} ${r.task} ${r.variant} ${r.profile}${r.budget ? ` ${r.budget}` : ''} L=${r.level}`;
    case 'retention':
      return `fit ${r.project} ${r.task} ${r.variant} ${r.profile} ${r.missing}`;
    case 'collapse':
      return `collapse ${r.project} ${r.task}`;
    case 'ablation':
      return `ablation ${r.project} ${r.task} L=${r.level}`;
    case 'scc':
      return `scc ${r.project} ${r.task}`;
    case 'sccAssay':
      return `${r.assay} ${r.project} ${r.task}`;
  }
}

interface Group {
  spec: string;
  seed: number | null;
  /** Inputs the group's records came from. */
  names: string[];
  keys: Map<string, string>;
  records: { [K in keyof RecordArrays]: RecordArrays[K] };
}

interface RecordArrays {
  cells: Report['cells'];
  fits: Report['fits'];
  collapse: Report['collapse'];
  ablations: Report['ablations'];
  scc: Report['scc'];
  sccAssays: Report['sccAssays'];
}

const byKey =
  <T>(...keys: Array<(x: T) => string | number>) =>
  (a: T, b: T): number => {
    for (const key of keys) {
      const x = key(a);
      const y = key(b);
      if (x < y) return -1;
      if (x > y) return 1;
    }
    return 0;
  };

const RECORD_ARRAYS = ['cells', 'fits', 'collapse', 'ablations', 'scc', 'sccAssays'] as const;

const groupKey = (spec: string, seed: number | null) => `${spec}\u0000${seed ?? ''}`;

/** Every input's records by (subject, run seed); the same subject and seed twice unites, a record twice throws. */
function groupRecords(inputs: readonly MergeInput[]): Group[] {
  const groups = new Map<string, Group>();
  for (const input of inputs) {
    const { report } = input;
    for (const array of RECORD_ARRAYS) {
      for (const record of report[array] as AnyRecord[]) {
        const spec = subjectOfRecord(input, record);
        if (!report.subjects.some((s) => s.spec === spec)) {
          throw new RangeError(
            `${input.name}: a ${record.kind} record names subject '${spec}', which is not among the report's subjects`,
          );
        }
        const key = groupKey(spec, report.seed);
        let group = groups.get(key);
        if (!group) {
          group = {
            spec,
            seed: report.seed,
            names: [],
            keys: new Map(),
            records: { cells: [], fits: [], collapse: [], ablations: [], scc: [], sccAssays: [] },
          };
          groups.set(key, group);
        }
        if (!group.names.includes(input.name)) group.names.push(input.name);
        const own = recordKeyOf(record);
        const first = group.keys.get(own);
        if (first !== undefined) {
          const where =
            first === input.name ? `${input.name} holds it twice` : `${first} and ${input.name} both hold it`;
          throw new RangeError(
            `${spec} (run seed ${report.seed ?? 'unknown'}): ${own} — ${where}. Runs of the same subject and seed are merged as shards of one run and must not overlap; pass each run once, or rerun with another --seed to compare two runs of one subject`,
          );
        }
        group.keys.set(own, input.name);
        (group.records[array] as AnyRecord[]).push({ ...record, subject: spec });
      }
    }
  }
  // spec order, as a run with several subjects lists them
  return [...groups.values()].sort(
    byKey(
      (g) => g.spec,
      (g) => g.seed ?? -1,
    ),
  );
}

const cellName = (c: CellResult) =>
  `${c.project}/${c.task}${c.variant === 'standard' ? '' : ` ${c.variant}`} L=${c.level}`;

/** The cells of an input by sweep and level (one subject of the input: its first, in report order). */
function cellsByKey(input: MergeInput): Map<string, CellResult[]> {
  const out = new Map<string, CellResult[]>();
  for (const cell of input.report.cells) {
    const key = [cell.project, cell.task, cell.variant, cell.profile, cell.budget ?? '', cell.level].join('\u0000');
    out.set(key, [...(out.get(key) ?? []), cell]);
  }
  return out;
}

const instanceSeeds = (cell: CellResult): string =>
  cell.trials
    .map((t) => `${t.seed}:${t.trialIndex}`)
    .sort()
    .join(',');

/** Two inputs: paired when every shared cell holds the same trial count and the same instance seeds. */
export function pairRuns(a: MergeInput, b: MergeInput): RunPairing {
  const head = `runs ${a.name} and ${b.name}`;
  const ca = cellsByKey(a);
  const cb = cellsByKey(b);
  const shared = [...ca.keys()].filter((k) => cb.has(k));
  const seedsDiffer = a.report.seed !== b.report.seed;
  const seeds = `seeds ${a.report.seed ?? 'unknown'} and ${b.report.seed ?? 'unknown'}`;
  if (shared.length === 0) {
    return {
      a: a.name,
      b: b.name,
      paired: null,
      text: `${head} share no cell — nothing to pair${seedsDiffer ? ` (${seeds})` : ''}`,
    };
  }
  const reasons: string[] = [];
  if (seedsDiffer) reasons.push(seeds);
  let counts: string | null = null;
  let instances: string | null = null;
  let noTrials: string | null = null;
  for (const key of shared) {
    // the first subject's cell of each run: a run's subjects answer the same instances
    const x = (ca.get(key) as CellResult[])[0];
    const y = (cb.get(key) as CellResult[])[0];
    if (counts === null && x.n !== y.n) counts = `trial counts differ (${cellName(x)}: ${x.n} and ${y.n})`;
    else if (noTrials === null && (x.trials.length === 0 || y.trials.length === 0)) {
      noTrials = `${cellName(x)} keeps no trial records in ${x.trials.length === 0 ? a.name : b.name}`;
    } else if (instances === null && x.n === y.n && instanceSeeds(x) !== instanceSeeds(y)) {
      instances = `instance seeds differ (${cellName(x)})`;
    }
  }
  for (const r of [counts, instances, noTrials]) if (r !== null) reasons.push(r);
  if (reasons.length === 0) {
    return {
      a: a.name,
      b: b.name,
      paired: true,
      text: `${head} are paired: seed ${a.report.seed ?? 'unknown'}, ${shared.length} shared cells with the same trial counts and instance seeds — paired tests used`,
    };
  }
  return {
    a: a.name,
    b: b.name,
    paired: false,
    text: `${head} are not paired: ${reasons.join('; ')} — unpaired tests used`,
  };
}

function mergeSpend(reports: readonly Report[]): Spend | undefined {
  const spends = reports.map((r) => r.spend);
  if (spends.some((s) => s === undefined)) return undefined;
  const all = spends as Spend[];
  const totals = (t: SpendTotals): SpendTotals => ({
    calls: t.calls,
    paid: t.paid,
    fromCache: t.fromCache,
    unknownUsage: t.unknownUsage,
  });
  const subjects = new Map<string, Spend['subjects'][number]>();
  for (const s of all.flatMap((x) => x.subjects)) {
    const seen = subjects.get(s.subject);
    subjects.set(s.subject, seen ? { ...seen, ...addSpend(totals(seen), totals(s)) } : s);
  }
  const projects = new Map<string, Spend['projects'][number]>();
  for (const p of all.flatMap((x) => x.projects)) {
    const seen = projects.get(p.project);
    if (!seen) {
      projects.set(p.project, p);
      continue;
    }
    const assays =
      seen.assays && p.assays
        ? {
            records: seen.assays.records + p.assays.records,
            trials: seen.assays.trials + p.assays.trials,
            finalCallPromptTokens: addNullable(seen.assays.finalCallPromptTokens, p.assays.finalCallPromptTokens),
            finalCallCompletionTokens: addNullable(
              seen.assays.finalCallCompletionTokens,
              p.assays.finalCallCompletionTokens,
            ),
          }
        : (seen.assays ?? p.assays);
    projects.set(p.project, {
      project: p.project,
      ...addSpend(totals(seen), totals(p)),
      ...(assays ? { assays } : {}),
    });
  }
  const total = all.map((s) => totals(s.total)).reduce((x, y) => addSpend(x, y));
  const assayRecords = all.flatMap((s) => (s.total.assays ? [s.total.assays] : []));
  const assayTotal =
    assayRecords.length === 0
      ? undefined
      : assayRecords.reduce((x, y) => ({
          records: x.records + y.records,
          trials: x.trials + y.trials,
          finalCallPromptTokens: addNullable(x.finalCallPromptTokens, y.finalCallPromptTokens),
          finalCallCompletionTokens: addNullable(x.finalCallCompletionTokens, y.finalCallCompletionTokens),
        }));
  return {
    currency: 'USD',
    priced: all.every((s) => s.priced),
    total: { ...total, ...(assayTotal ? { assays: assayTotal } : {}) },
    subjects: [...subjects.values()].sort(byKey((s) => s.subject)),
    projects: [...projects.values()].sort(byKey((p) => p.project)),
    cells: all.flatMap((s) => s.cells),
    assays: all.flatMap((s) => s.assays),
  };
}

const addNullable = (a: number | null, b: number | null): number | null => (a === null || b === null ? null : a + b);

const same = <T>(values: readonly T[]): T | null => (values.every((v) => v === values[0]) ? values[0] : null);

/** One report and its leaderboard from several runs' reports (the rules: this module's comment). */
export function mergeReports(inputs: readonly MergeInput[], options: MergeOptions): MergeResult {
  if (inputs.length === 0) throw new RangeError('merge: no reports given');
  const groups = groupRecords(inputs);
  const subjects: LeaderboardSubject[] = groups.map((g) => ({
    subject: g.spec,
    seed: g.seed,
    cells: g.records.cells,
    fits: g.records.fits,
    collapse: g.records.collapse,
    scc: g.records.scc,
  }));
  const { version, ...leaderboardOptions } = options;
  // the bootstrap's root seed is the runs' seed, as in one run with several subjects (src/report/build.ts)
  const runSeed = same(inputs.map((i) => i.report.seed));
  const leaderboard = buildLeaderboard(subjects, { seed: runSeed ?? 0, ...leaderboardOptions });
  const runs: RunPairing[] = [];
  for (let i = 0; i < inputs.length; i++) {
    for (let j = i + 1; j < inputs.length; j++) runs.push(pairRuns(inputs[i], inputs[j]));
  }
  const unpaired = leaderboard.projects.flatMap((p) =>
    p.boards.flatMap((b) =>
      b.comparisons.flatMap((c) =>
        c.pairing?.paired === false ? [`${p.project}/${b.task}: ${c.a} vs ${c.b} — unpaired: ${c.pairing.reason}`] : [],
      ),
    ),
  );

  const pick = <K extends keyof RecordArrays>(array: K): RecordArrays[K] =>
    groups.flatMap((g) => g.records[array] as AnyRecord[]) as RecordArrays[K];
  const cells = pick('cells').sort(
    byKey(
      (c) => c.project,
      (c) => c.task,
      (c) => c.variant,
      (c) => c.level,
      (x) => x.subject ?? '',
    ),
  );
  const fits = pick('fits').sort(
    byKey(
      (f) => f.project,
      (f) => f.task,
      (f) => f.variant,
      (x) => x.subject ?? '',
    ),
  );
  const collapse = pick('collapse').sort(
    byKey(
      (f) => f.project,
      (f) => f.task,
      (x) => x.subject ?? '',
    ),
  );
  const ablations = pick('ablations').sort(
    byKey(
      (a) => a.project,
      (a) => a.task,
      (a) => a.level,
      (x) => x.subject ?? '',
    ),
  );
  const scc = pick('scc').sort(
    byKey(
      (r) => r.project,
      (r) => r.task,
      (x) => x.subject ?? '',
    ),
  );
  const sccAssays = pick('sccAssays').sort(
    byKey(
      (s) => s.assay,
      (s) => s.task,
      (x) => x.subject ?? '',
    ),
  );
  const reports = inputs.map((i) => i.report);
  const identities = new Map<string, SubjectIdentity>();
  for (const r of reports) for (const s of r.subjects) if (!identities.has(s.spec)) identities.set(s.spec, s);
  const gates = reports
    .flatMap((r) =>
      r.gates.map((g) =>
        g.subject !== undefined || r.subjects.length !== 1 ? g : { ...g, subject: r.subjects[0].spec },
      ),
    )
    .sort(
      byKey(
        (g) => g.project,
        (g) => g.task,
        (g) => g.gate,
        (x) => x.subject ?? '',
      ),
    );
  const tests = reports
    .flatMap((r) => r.tests)
    .sort(
      byKey(
        (t) => t.project,
        (t) => t.file,
        (t) => t.name,
      ),
    );
  const spend = mergeSpend(reports);
  const started = reports.map((r) => r.timing.startedAt).sort();
  const finished = reports.map((r) => r.timing.finishedAt).sort();
  const report: Report = {
    schemaVersion: 1,
    tool: { name: 'ceilingbench', version },
    seed: same(reports.map((r) => r.seed)),
    subjects: [...identities.values()].sort(byKey((s) => s.spec)),
    git: { sha: same(reports.map((r) => r.git.sha)) },
    projects: [...new Set(reports.flatMap((r) => r.projects))].sort(),
    cells,
    fits,
    collapse,
    ablations,
    scc,
    sccAssays,
    gates,
    tests,
    summary: reportSummary(
      cells,
      gates,
      reports.reduce((s, r) => s + r.summary.testsFailed, 0),
    ),
    ...(spend ? { spend } : {}),
    leaderboard,
    timing: {
      startedAt: started[0],
      finishedAt: finished[finished.length - 1],
      durationMs: reports.reduce((s, r) => s + r.timing.durationMs, 0),
    },
  };
  return { report, leaderboard, runs, unpaired };
}

/**
 * The tests a merged report stands for, for its JUnit file: one per record (named by its record and subject,
 * no duration: the runs' timings are theirs), and each run's failed tests without a record.
 */
export function mergedTestEntries(report: Report): TestEntry[] {
  const identity = (spec: string | undefined): SubjectIdentity => {
    const found = report.subjects.find((s) => s.spec === spec);
    if (!found) throw new RangeError(`merged report: record subject '${spec}' is not among its subjects`);
    return found;
  };
  const entry = (record: AnyRecord, name: string): TestEntry => ({
    project: record.project,
    name: `${name} · ${record.subject ?? ''}`,
    file: '',
    state: 'passed',
    errors: [],
    durationMs: 0,
    meta: { record, gates: [], subject: identity(record.subject), seed: report.seed ?? 0 },
  });
  return [
    ...report.cells.map((c) => entry(c, `${c.task} ${c.variant} L=${c.level}`)),
    ...report.fits.map((f) => entry(f, `${f.task} ${f.variant} p_d fit`)),
    ...report.collapse.map((f) => entry(f, `${f.task} collapse`)),
    ...report.ablations.map((a) => entry(a, `${a.task} ablation L=${a.level}`)),
    ...report.scc.map((r) => entry(r, `${r.task} counting capacity`)),
    ...report.sccAssays.map((r) => entry(r, `${r.task} ${r.assay}`)),
    ...report.tests.map((t) => ({ ...t, durationMs: 0 })),
  ];
}
