import type { ProjectGates } from '../config/schema.js';
import type { CellResult } from '../schema/cell.js';
import type { Ablation, CollapseFit, RetentionFit } from '../schema/fit.js';
import type { GateResult } from '../schema/gate.js';
import type { CeilingbenchMeta } from '../schema/meta.js';
import type { PlainTest, Report, SccAssayRecord, SccRecord } from '../schema/report.js';
import type { Prices, SpendLimitReport } from '../schema/spend.js';
import type { SubjectIdentity } from '../schema/subject.js';
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

/** Report order of the records: by project, then task, then the given keys. */
const byProjectTask = <T extends { project: string; task: string }>(...then: Array<(x: T) => string | number>) =>
  byKey<T>(
    (x) => x.project,
    (x) => x.task,
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
  const ran = new Set(entries.map((e) => e.project));
  const results: GateResult[] = [];
  for (const [project, projectGates] of Object.entries(configured)) {
    if (!ran.has(project)) continue;
    for (const [gate, value] of Object.entries(projectGates)) {
      if (value === undefined) continue;
      const { value: threshold, mode } = typeof value === 'number' ? { value, mode: 'hard' as const } : value;
      if (mode !== 'hard' || evaluated.some((g) => g.project === project && g.gate === gate)) continue;
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
          `gate ${project}.${gate} FAILED (hard): not evaluated — no finished fit in project '${project}' ` +
          'that this gate applies to (check the gate name and that the fit test ran)',
      });
    }
  }
  return results;
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
  for (const entry of entries) {
    const meta = entry.meta;
    if (!meta) continue;
    subjects.set(meta.subject.spec, meta.subject);
    seeds.add(meta.seed);
    gates.push(...meta.gates);
    cells.push(...(meta.cells ?? []));
    const record = meta.record;
    for (const r of [...(meta.cells ?? []), record]) subjectOf.set(r, meta.subject.spec);
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
    ),
  );
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
  const trials = cells.reduce((sum, c) => sum + c.n, 0);
  const missing = cells.reduce((sum, c) => sum + c.missing, 0);
  const sortedSubjects = [...subjects.values()].sort(byKey((s) => s.spec));
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
    seed: seeds.size === 1 ? [...seeds][0] : null,
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
    summary: {
      cells: cells.length,
      trials,
      missing,
      missingRate: trials > 0 ? missing / trials : null,
      insufficientCells: cells.filter((c) => c.status === 'insufficient').length,
      hardGatesFailed: gates.filter((g) => g.mode === 'hard' && !g.passed).length,
      testsFailed: entries.filter((e) => e.state === 'failed').length,
    },
    spend,
    timing: { startedAt: run.startedAt, finishedAt: run.finishedAt, durationMs: run.durationMs },
  };
}
