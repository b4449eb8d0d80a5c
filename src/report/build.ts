import { CROSS_SUBJECT_GATE_KEYS, NOT_WORSE_MARGIN, type ProjectGates } from '../config/schema.js';
import { buildLeaderboard, type LeaderboardSubject, notWorseThan } from '../leaderboard/index.js';
import type { CellResult } from '../schema/cell.js';
import type { Ablation, CollapseFit, RetentionFit } from '../schema/fit.js';
import type { GateResult } from '../schema/gate.js';
import type { Leaderboard } from '../schema/leaderboard.js';
import type { CeilingbenchMeta } from '../schema/meta.js';
import type { PlainTest, Report, SccAssayRecord, SccRecord } from '../schema/report.js';
import type { Prices, SpendLimitReport } from '../schema/spend.js';
import type { SubjectIdentity } from '../schema/subject.js';
import { byKey } from './order.js';
import { buildSpend } from './spend.js';

/** One finished test as the reporter saw it; a failed one without a record is kept in the report as it is here. */
export interface TestEntry extends PlainTest {
  /** Wall-clock duration of the test (a timing field; JUnit only). */
  durationMs: number;
  meta?: CeilingbenchMeta;
}

export interface RunInfo {
  version: string;
  /** The configured gates per Vitest project: a hard gate of a project that ran but was never evaluated fails. */
  gates?: Readonly<Record<string, ProjectGates>>;
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
}

/**
 * Whether a Vitest project belongs to a gate's key: the project itself, or one of its per-subject projects
 * (`d2@<label>`) in a run with several subjects.
 */
export const gateKeyCovers = (key: string, project: string): boolean =>
  project === key || project.startsWith(`${key}@`);

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
 * A configured hard gate of a project that ran, with no result: it fails, naming why, so that a gate can
 * never pass on data it did not check (e.g. a name filter that skipped the fit, or a gate of the wrong kind).
 */
function unevaluatedGates(
  configured: Readonly<Record<string, ProjectGates>>,
  entries: readonly TestEntry[],
  evaluated: readonly GateResult[],
): GateResult[] {
  const ran = [...new Set(entries.map((e) => e.project))];
  const results: GateResult[] = [];
  for (const [key, projectGates] of Object.entries(configured)) {
    // A key covers every project that ran under it (`d2` covers d2 and each d2@<label>): each must have its own result.
    const covered = ran.filter((p) => gateKeyCovers(key, p));
    for (const [gate, value] of Object.entries(projectGates)) {
      if (value === undefined || CROSS_SUBJECT_GATE_KEYS.includes(gate)) continue;
      if (typeof value !== 'number' && typeof value !== 'object') continue;
      const { value: threshold, mode } =
        typeof value === 'number' ? { value, mode: 'hard' as const } : (value as { value: number; mode: string });
      if (mode !== 'hard') continue;
      for (const project of covered) {
        if (evaluated.some((g) => g.project === project && g.gate === gate)) continue;
        results.push({
          project,
          task: '*',
          gate,
          mode,
          threshold,
          estimate: null,
          ci95: null,
          passed: false,
          message:
            `gate ${key}.${gate} FAILED (hard): not evaluated — no finished fit in project '${project}' ` +
            'that this gate applies to (check the gate name and that the fit test ran)',
        });
      }
    }
  }
  return results;
}

/** One subject's records among some tests' meta, as the leaderboard reads them. */
function recordsOf(spec: string, entries: readonly TestEntry[]): LeaderboardSubject {
  const out: LeaderboardSubject = { subject: spec, seed: null, cells: [], fits: [], collapse: [], scc: [] };
  for (const { meta } of entries) {
    if (!meta || meta.subject.spec !== spec) continue;
    out.seed = meta.seed;
    out.cells.push(...(meta.cells ?? []));
    const r = meta.record;
    if (r.kind === 'cell') out.cells.push(r);
    else if (r.kind === 'retention') out.fits.push(r);
    else if (r.kind === 'collapse') out.collapse.push(r);
    else if (r.kind === 'scc') out.scc.push(r);
  }
  return out;
}

/**
 * The notWorseThan gates (issue 20): decided here, where every subject's fits are known. For each configured
 * project, every subject other than the baseline that ran in it is compared with the baseline on each of its
 * retention sweeps (src/leaderboard notWorseThan: paired when the trials pair). A baseline that did not run, a
 * project with no other subject, or a comparison with nothing to test ('insufficient') fails: never a pass on
 * data the gate did not check.
 */
function crossSubjectGates(
  configured: Readonly<Record<string, ProjectGates>>,
  entries: readonly TestEntry[],
  seed: number,
  resamples: number | undefined,
): GateResult[] {
  const results: GateResult[] = [];
  for (const [key, gates] of Object.entries(configured)) {
    const setting = gates.notWorseThan;
    if (setting === undefined) continue;
    const inProject = entries.filter((e) => gateKeyCovers(key, e.project) && e.meta);
    if (inProject.length === 0) continue;
    const {
      subject: baseline,
      mode,
      alpha,
      margin,
    } = typeof setting === 'string'
      ? { subject: setting, mode: 'hard' as const, alpha: 0.05, margin: gates.margin ?? NOT_WORSE_MARGIN }
      : { ...setting, margin: setting.margin ?? gates.margin ?? NOT_WORSE_MARGIN };
    const verdict = (passed: boolean, why: string) =>
      `gate ${key}.notWorseThan ${passed ? 'passed' : 'FAILED'} (${mode}): ${why}`;
    const base = { project: key, gate: 'notWorseThan', mode, threshold: -margin, ci95: null, baseline };
    const specs = [...new Set(inProject.map((e) => e.meta?.subject.spec as string))].sort();
    const of = (spec: string) => recordsOf(spec, inProject);
    // a gate that cannot compare fails: it never passes on data it did not check
    const cannotCompare = (why: string) =>
      results.push({ ...base, task: '*', estimate: null, passed: false, upper: null, message: verdict(false, why) });
    if (!specs.includes(baseline)) {
      cannotCompare(
        `baseline subject '${baseline}' did not run in project '${key}' (subjects: ${specs.join(', ')}); add it to the run's subjects`,
      );
      continue;
    }
    const candidates = specs.filter((s) => s !== baseline);
    if (candidates.length === 0) {
      cannotCompare(`no subject other than the baseline '${baseline}' ran in project '${key}': nothing to compare`);
      continue;
    }
    const baselineRecords = of(baseline);
    for (const candidate of candidates) {
      const candidateRecords = of(candidate);
      const sweeps = new Map<string, { project: string; task: string; variant: string }>();
      for (const f of candidateRecords.fits) sweeps.set([f.project, f.task, f.variant].join('\u0000'), f);
      const targets =
        sweeps.size > 0
          ? [...sweeps.values()]
          : [{ project: inProject[0].meta?.record.project ?? key, task: undefined, variant: undefined }];
      for (const target of targets) {
        const r = notWorseThan(candidateRecords, baselineRecords, margin, alpha, {
          project: target.project,
          ...(target.task !== undefined ? { task: target.task, variant: target.variant } : {}),
          seed,
          ...(resamples !== undefined ? { resamples } : {}),
        });
        results.push({
          ...base,
          task: r.task ?? '*',
          estimate: r.difference,
          passed: r.verdict === 'pass',
          message: verdict(
            r.verdict === 'pass',
            r.verdict === 'insufficient' ? `insufficient: ${r.message}` : r.message,
          ),
          subject: candidate,
          upper: r.upper,
        });
      }
    }
  }
  return results;
}

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
  try {
    return buildLeaderboard(inputs, { seed, ...(resamples !== undefined ? { resamples } : {}) });
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
    hardGatesFailed: gates.filter((g) => g.mode === 'hard' && !g.passed).length,
    testsFailed,
  };
}

/** Assembles ceilingbench.json from the tests' meta; sorted so that the same run gives the same bytes. */
export function buildReport(entries: readonly TestEntry[], run: RunInfo): Report {
  const cells: CellResult[] = [];
  const fits: RetentionFit[] = [];
  const collapse: CollapseFit[] = [];
  const ablations: Ablation[] = [];
  const scc: SccRecord[] = [];
  const sccAssays: SccAssayRecord[] = [];
  const gates: GateResult[] = [];
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
    gates.push(...meta.gates.map((g) => stamp(g, spec)));
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
  gates.push(...crossSubjectGates(run.gates ?? {}, entries, seed ?? 0, run.leaderboardResamples));
  gates.push(...unevaluatedGates(run.gates ?? {}, entries, gates));
  gates.sort(byProjectTask((g) => g.gate));
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
      )
    : undefined;
  if (leaderboard && 'error' in leaderboard) tests.push(leaderboard.error);
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
    summary: reportSummary(cells, gates, entries.filter((e) => e.state === 'failed').length),
    spend,
    ...(leaderboard && !('error' in leaderboard) ? { leaderboard } : {}),
    timing: { startedAt: run.startedAt, finishedAt: run.finishedAt, durationMs: run.durationMs },
  };
}
