import { buildLeaderboard, type LeaderboardOptions, type LeaderboardSubject } from '../../../src/leaderboard/index.js';
import type { Leaderboard } from '../../../src/schema/leaderboard.js';
import { buildProvenance, type Provenance, type ProvenanceSettings } from '../../../src/schema/provenance.js';
import type { Report } from '../../../src/schema/report.js';
import type { SubjectIdentity } from '../../../src/schema/subject.js';
import { reportSummary, type TestEntry } from '../build.js';
import { byKey } from '../order.js';
import { type AnyRecord, groupRecords, type MergeInput } from './attribution.js';
import { pairRuns, type RunPairing } from './pairing.js';
import { mergedGates, mergedRecords, mergedTests } from './records.js';
import { mergeSpend } from './spend.js';

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
  // the bootstrap's root seed is the runs' seed, as in one run with several subjects (reporters/projections/build.ts)
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

  const records = mergedRecords(groups);
  const reports = inputs.map((i) => i.report);
  const identities = new Map<string, SubjectIdentity>();
  for (const r of reports) for (const s of r.subjects) if (!identities.has(s.spec)) identities.set(s.spec, s);
  const gates = mergedGates(reports);
  const spend = mergeSpend(reports.map((r) => r.spend));
  const started = reports.map((r) => r.timing.startedAt).sort();
  const finished = reports.map((r) => r.timing.finishedAt).sort();
  const identityList = [...identities.values()].sort(byKey((s) => s.spec));
  const seed = same(reports.map((r) => r.seed));
  const report: Report = {
    schemaVersion: 1,
    tool: { name: 'ceilingbench', version },
    seed,
    subjects: identityList,
    provenance: mergedProvenance(reports, identityList, seed, records),
    git: { sha: same(reports.map((r) => r.git.sha)) },
    projects: [...new Set(reports.flatMap((r) => r.projects))].sort(),
    ...records,
    gates,
    tests: mergedTests(reports),
    ...(reports.some((r) => r.manifest)
      ? { manifest: { requirements: reports.flatMap((r) => r.manifest?.requirements ?? []) } }
      : {}),
    summary: reportSummary(
      records.cells,
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

/**
 * The merged report's provenance (src/schema/provenance.ts): its subjects and records, and each run setting the
 * inputs agree on (one that differs, or an input that did not record it, is null: not recorded as one value).
 */
function mergedProvenance(
  reports: readonly Report[],
  subjects: SubjectIdentity[],
  seed: number | null,
  records: { cells: Report['cells']; fits: Report['fits'] },
): Provenance {
  const sides = reports.map((r) => r.provenance);
  const agreed = <K extends keyof ProvenanceSettings>(key: K): ProvenanceSettings[K] | null => {
    const values = sides.map((p) => (p ? (p as unknown as ProvenanceSettings)[key] : undefined));
    return values.every((v) => v !== undefined && v !== null && v === values[0])
      ? (values[0] as ProvenanceSettings[K])
      : null;
  };
  const built = buildProvenance({
    subjects,
    seed,
    packageVersion: same(reports.map((r) => r.tool.version)),
    ...records,
  });
  const readingProfile = agreed('readingProfile');
  return {
    ...built,
    trials: agreed('trials'),
    design: agreed('design'),
    missingRule: agreed('missingRule') ?? built.missingRule,
    maxMissingFraction: agreed('maxMissingFraction'),
    reasoningDelimiters: agreed('reasoningDelimiters'),
    vitestVersion: agreed('vitestVersion'),
    ...(readingProfile !== null ? { readingProfile } : {}),
  };
}
