import type { ProjectGates } from '../../src/config/schema.js';
import {
  type DeclaredFit,
  decideVerdict,
  deriveManifest,
  type EvidenceRecord,
  gateKeyCovers,
  hardFailures,
  normalizeNotWorseThan,
} from '../../src/gates/index.js';
import { buildLeaderboard, type LeaderboardSubject } from '../../src/leaderboard/index.js';
import type { CellResult } from '../../src/schema/cell.js';
import type { Ablation, CollapseFit, RetentionFit } from '../../src/schema/fit.js';
import type { GateResult } from '../../src/schema/gate.js';
import type { Leaderboard } from '../../src/schema/leaderboard.js';
import type { FitDeclaration, Requirement } from '../../src/schema/manifest.js';
import type { CeilingbenchMeta } from '../../src/schema/meta.js';
import { buildProvenance, type ProvenanceSettings } from '../../src/schema/provenance.js';
import type { PlainTest, Report, RunScope, SccAssayRecord, SccRecord } from '../../src/schema/report.js';
import type { Prices, SpendLimitReport } from '../../src/schema/spend.js';
import type { SubjectIdentity } from '../../src/schema/subject.js';
import { byKey } from './order.js';
import { buildSpend } from './spend.js';

/** One finished test as the reporter saw it; a failed one without a record is kept in the report as it is here. */
export interface TestEntry extends PlainTest {
  /** Wall-clock duration of the test (a timing field; JUnit only). */
  durationMs: number;
  meta?: CeilingbenchMeta;
  /** The spec file it is in, relative to the ceilingbench root (the manifest names spec files so). */
  specFile?: string;
  /** A fit test's declaration, known once collected whether it ran or not (src/vitest/sweep.ts, scc.ts). */
  declares?: FitDeclaration;
}

export interface RunInfo {
  version: string;
  /** The configured gates per Vitest project: a configured hard gate nothing evaluated fails (src/gates). */
  gates?: Readonly<Record<string, ProjectGates>>;
  /**
   * What the configuration declares and how this run was narrowed (the reporter knows both): the gates of a
   * declared project that did not run fail as not evaluated, and the report says what was left out. Without it the
   * declared projects are those that ran, and the report has no `scope`.
   */
  scope?: { declared: readonly string[]; filters: string | null; shards?: RunScope['shards']; retryRefused?: number };
  gitSha: string | null;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  /** The configuration's price table (USD per million tokens); without it the report has tokens and no cost. */
  prices?: Prices;
  /** The run's spending-limit record (its budget ledger), when the run had a limit. */
  spendLimit?: SpendLimitReport;
  /** Bootstrap resamples of the leaderboard and the notWorseThan gates (default 2000, the leaderboard's). */
  leaderboardResamples?: number;
  /** The run's settings for the report's provenance (src/schema/provenance.ts); absent: those fields are null. */
  settings?: ProvenanceSettings;
  /**
   * The evidence manifest (src/gates/manifest.ts), derived before the run from the configuration and the declared
   * spec files, and the spec files this run collected (relative to the ceilingbench root). Without it (a caller
   * that knows no declaration) each declared or run project needs a record of each gate's kind from its subject.
   */
  manifest?: {
    requirements: readonly Requirement[];
    collected: ReadonlyArray<{ project: string; file: string }>;
    /** The run's `-t` pattern, if any. */
    nameFilter?: string;
  };
}

/** Report order of the records: by project, then task, then subject (with several), then the given keys. */
const byProjectTask = <T extends { project: string; task: string; subject?: string }>(
  ...then: Array<(x: T) => string | number>
) =>
  byKey<T>(
    (x) => x.project,
    (x) => x.task,
    (x) => x.subject ?? '',
    ...then,
  );

/**
 * The run's leaderboard, from the report's records grouped by subject (in spec order). A leaderboard that cannot
 * be built (a subject with two records of one board) is reported as a failed test: the rest of the report stands.
 */
function leaderboardOf(
  specs: readonly string[],
  records: { cells: CellResult[]; fits: RetentionFit[]; collapse: CollapseFit[]; scc: SccRecord[] },
  entries: readonly TestEntry[],
  seed: number,
  resamples: number | undefined,
  gates: Readonly<Record<string, ProjectGates>>,
): Leaderboard | { error: PlainTest } {
  const inputs: LeaderboardSubject[] = specs.map((spec) => {
    const mine = <T extends { subject?: string }>(xs: T[]) => xs.filter((x) => x.subject === spec);
    return {
      subject: spec,
      seed: entries.find((e) => e.meta?.subject.spec === spec)?.meta?.seed ?? null,
      cells: mine(records.cells),
      fits: mine(records.fits),
      collapse: mine(records.collapse),
      scc: mine(records.scc),
    };
  });
  // each project's gated baseline is compared with every subject, besides the adjacent ranks
  const baselines: Record<string, string> = {};
  for (const project of new Set([...records.cells, ...records.scc].map((r) => r.project))) {
    const key = Object.keys(gates).find((k) => gates[k]?.notWorseThan !== undefined && gateKeyCovers(k, project));
    const gate = key === undefined ? undefined : gates[key];
    if (gate?.notWorseThan !== undefined)
      baselines[project] = normalizeNotWorseThan(gate.notWorseThan, gate.margin).subject;
  }
  try {
    return buildLeaderboard(inputs, { seed, baselines, ...(resamples !== undefined ? { resamples } : {}) });
  } catch (error) {
    return {
      error: {
        project: '*',
        name: 'leaderboard',
        file: 'ceilingbench.json',
        state: 'failed',
        errors: [`could not build the leaderboard: ${(error as Error).message}`],
      },
    };
  }
}

/**
 * A merge that lacks shards is a failed test of the report: the projects those shards ran are in no record, and a
 * merge never passes on what it did not receive.
 */
function missingShards(shards: NonNullable<RunScope['shards']>): PlainTest | undefined {
  if (shards.missing.length === 0) return undefined;
  const which = shards.missing.map((i) => `${i}/${shards.count}`).join(', ');
  return {
    project: '*',
    name: 'merged shards',
    file: '',
    state: 'failed',
    errors: [
      `merged ${shards.merged.length} of ${shards.count} shards: shard ${which} missing — ` +
        'its job failed or its blob was not uploaded; the projects it ran are not in this report',
    ],
  };
}

function scopeOf(scope: NonNullable<RunInfo['scope']>, ran: readonly string[]): RunScope {
  const declared = [...new Set(scope.declared)].sort();
  return {
    declared,
    ran: [...ran].sort(),
    notRun: declared.filter((p) => !ran.includes(p)),
    filters: scope.filters,
    ...(scope.retryRefused ? { retryRefused: scope.retryRefused } : {}),
    ...(scope.shards ? { shards: scope.shards } : {}),
  };
}

/** The report's summary line, from its cells and gates (one rule for a run's report and a merged one). */
export function reportSummary(
  cells: readonly CellResult[],
  gates: readonly GateResult[],
  testsFailed: number,
): Report['summary'] {
  const trials = cells.reduce((sum, c) => sum + c.n, 0);
  const missing = cells.reduce((sum, c) => sum + c.missing, 0);
  return {
    cells: cells.length,
    trials,
    missing,
    missingRate: trials > 0 ? missing / trials : null,
    insufficientCells: cells.filter((c) => c.status === 'insufficient').length,
    hardGatesFailed: hardFailures(gates).length,
    testsFailed,
  };
}

/** A finished record a gate reads, as the verdict weighs it (src/gates/evidence.ts). */
function evidenceOf(entry: TestEntry): EvidenceRecord[] {
  const meta = entry.meta;
  const r = meta?.record;
  if (!meta || !r || (r.kind !== 'retention' && r.kind !== 'collapse' && r.kind !== 'scc')) return [];
  const insufficient =
    r.kind === 'scc'
      ? r.stopped
        ? 'the spend ledger stopped the ladder: no counting capacity was measured'
        : undefined
      : r.status === 'insufficient'
        ? `insufficient data (${(r.kind === 'retention' ? r.insufficientReason : undefined) ?? 'too many missing trials'})`
        : undefined;
  return [
    {
      project: entry.project,
      kind: r.kind,
      task: r.task,
      ...(r.kind === 'retention' ? { variant: r.variant, profile: r.profile } : {}),
      ...(r.kind === 'collapse' ? { levels: r.levels.map((l) => l.level) } : {}),
      sufficiency: insufficient === undefined ? { ok: true } : { ok: false, why: insufficient },
      subject: meta.subject.spec,
      seed: meta.seed,
      ...(entry.specFile !== undefined ? { file: entry.specFile } : {}),
      gates: meta.gates,
    },
  ];
}

/** A collected fit test's declaration, with how it ended (ran, failed, skipped by a filter). */
const declaredFitOf = (entry: TestEntry): DeclaredFit[] =>
  entry.declares
    ? [
        {
          ...entry.declares,
          project: entry.project,
          file: entry.specFile ?? entry.file,
          name: entry.name,
          state: entry.state,
          errors: entry.errors,
        },
      ]
    : [];

/**
 * Without a manifest from the plugin: every declared or run project needs, for each hard gate, a record of the
 * gate's kind from the subject that answered it (the run's only subject when none did).
 */
function fallbackManifest(run: RunInfo, entries: readonly TestEntry[], ran: readonly string[]): Requirement[] {
  const specs = [...new Set(entries.flatMap((e) => (e.meta ? [e.meta.subject.spec] : [])))];
  const seeds = [...new Set(entries.flatMap((e) => (e.meta ? [e.meta.seed] : [])))];
  const projects = [...new Set([...(run.scope?.declared ?? []), ...ran])].map((name) => ({
    name,
    subject: entries.find((e) => e.project === name && e.meta)?.meta?.subject.spec ?? specs[0] ?? '*',
  }));
  return deriveManifest(run.gates ?? {}, projects, seeds.length === 1 ? seeds[0] : 0);
}

/** Assembles ceilingbench.json from the tests' meta; sorted so that the same run gives the same bytes. */
export function buildReport(entries: readonly TestEntry[], run: RunInfo): Report {
  const cells: CellResult[] = [];
  const fits: RetentionFit[] = [];
  const collapse: CollapseFit[] = [];
  const ablations: Ablation[] = [];
  const scc: SccRecord[] = [];
  const sccAssays: SccAssayRecord[] = [];
  const measured: GateResult[] = [];
  const subjects = new Map<string, SubjectIdentity>();
  // who answered each record, for the accounts (a record does not name its subject; its test's meta does)
  const subjectOf = new Map<object, string>();
  const seeds = new Set<number>();
  // With several subjects every record names its subject; with one, the records keep the bytes they had.
  const several = new Set(entries.flatMap((e) => (e.meta ? [e.meta.subject.spec] : []))).size >= 2;
  const stamp = <T extends object>(r: T, spec: string): T => (several ? { ...r, subject: spec } : r);
  for (const entry of entries) {
    const meta = entry.meta;
    if (!meta) continue;
    const spec = meta.subject.spec;
    subjects.set(spec, meta.subject);
    seeds.add(meta.seed);
    measured.push(...meta.gates.map((g) => stamp(g, spec)));
    const ownCells = (meta.cells ?? []).map((c) => stamp(c, spec));
    cells.push(...ownCells);
    const record = stamp(meta.record, spec);
    for (const r of [...ownCells, record]) subjectOf.set(r, spec);
    if (record.kind === 'cell') cells.push(record);
    else if (record.kind === 'retention') fits.push(record);
    else if (record.kind === 'collapse') collapse.push(record);
    else if (record.kind === 'ablation') ablations.push(record);
    else if (record.kind === 'sccAssay') sccAssays.push(record);
    else scc.push(record);
  }
  cells.sort(
    byProjectTask(
      (c) => c.variant,
      (c) => c.level,
    ),
  );
  fits.sort(byProjectTask((f) => f.variant));
  collapse.sort(byProjectTask());
  ablations.sort(byProjectTask((a) => a.level));
  scc.sort(byProjectTask());
  sccAssays.sort(
    byKey(
      (s) => s.assay,
      (s) => s.task,
      (s) => s.subject ?? '',
    ),
  );
  const seed = seeds.size === 1 ? [...seeds][0] : null;
  const ran = [...new Set(entries.map((e) => e.project))];
  const { gates: decided, outcomes } = decideVerdict({
    configured: run.gates ?? {},
    requirements: run.manifest?.requirements ?? fallbackManifest(run, entries, ran),
    evidence: {
      records: entries.flatMap(evidenceOf),
      ...(run.manifest ? { declared: entries.flatMap(declaredFitOf), collected: run.manifest.collected } : {}),
      ran: [...ran, ...(run.manifest?.collected ?? []).map((c) => c.project)],
      ...(run.scope?.filters ? { filters: run.scope.filters } : {}),
      ...(run.manifest?.nameFilter ? { nameFilter: run.manifest.nameFilter } : {}),
    },
    measured,
    entries,
    seed: seed ?? 0,
    resamples: run.leaderboardResamples,
  });
  const gates = decided.sort(byProjectTask((g) => g.gate));
  const tests = entries
    .filter((e) => !e.meta && e.state === 'failed')
    .map((e) => ({ project: e.project, name: e.name, file: e.file, state: e.state, errors: e.errors }))
    .sort(
      byKey(
        (t) => t.project,
        (t) => t.file,
        (t) => t.name,
      ),
    );
  const sortedSubjects = [...subjects.values()].sort(byKey((s) => s.spec));
  const leaderboard = several
    ? leaderboardOf(
        sortedSubjects.map((s) => s.spec),
        { cells, fits, collapse, scc },
        entries,
        seed ?? 0,
        run.leaderboardResamples,
        run.gates ?? {},
      )
    : undefined;
  if (leaderboard && 'error' in leaderboard) tests.push(leaderboard.error);
  const lost = run.scope?.shards ? missingShards(run.scope.shards) : undefined;
  if (lost) tests.push(lost);
  const spend = buildSpend({
    cells: cells.map((cell) => ({ cell, subject: subjectOf.get(cell) ?? '' })),
    assays: [...scc, ...sccAssays].map((record) => ({ record, subject: subjectOf.get(record) ?? '' })),
    subjects: sortedSubjects,
    prices: run.prices ?? {},
    ...(run.spendLimit ? { limit: run.spendLimit } : {}),
  });
  return {
    schemaVersion: 1,
    tool: { name: 'ceilingbench', version: run.version },
    seed,
    subjects: sortedSubjects,
    provenance: buildProvenance({
      subjects: sortedSubjects,
      seed,
      packageVersion: run.version,
      cells,
      fits,
      ...(run.settings ? { settings: run.settings } : {}),
    }),
    git: { sha: run.gitSha },
    projects: [...new Set(entries.map((e) => e.project))].sort(),
    cells,
    fits,
    collapse,
    ablations,
    scc,
    sccAssays,
    gates,
    tests,
    ...(run.scope ? { scope: scopeOf(run.scope, ran) } : {}),
    ...(outcomes.length > 0 ? { manifest: { requirements: outcomes } } : {}),
    summary: reportSummary(cells, gates, entries.filter((e) => e.state === 'failed').length + (lost ? 1 : 0)),
    spend,
    ...(leaderboard && !('error' in leaderboard) ? { leaderboard } : {}),
    timing: { startedAt: run.startedAt, finishedAt: run.finishedAt, durationMs: run.durationMs },
  };
}
