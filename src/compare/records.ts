import { UsageError } from '../errors.js';
import type { Baseline } from '../schema/baseline.js';
import { formatLevels } from './levels.js';
import type { ComparedMetric, NewRecord, NotCompared, NotComparedKind } from './schema.js';

export type Fit = Baseline['fits'][number];
export type Cell = Baseline['cells'][number];
export type Collapse = Baseline['collapse'][number];
export type Scc = Baseline['scc'][number];

/** The identity of a record: what the other run's counterpart must share. */
export interface RecordRef {
  metric: ComparedMetric;
  project: string;
  task: string;
  variant: string | null;
  level: number | null;
}

const showVariant = (variant: string | null) => variant !== null && variant !== 'standard' && variant !== 'default';

/** What a row says in its `where` column: the variant of a fit, the level (and variant) of a cell, or nothing. */
export function whereOf(ref: RecordRef): string {
  if (ref.level !== null) return `level ${ref.level}${showVariant(ref.variant) ? ` ${ref.variant}` : ''}`;
  return ref.variant ?? '';
}

const makeRef = (
  metric: ComparedMetric,
  r: { project: string; task: string },
  variant: string | null,
  level: number | null,
): RecordRef => ({ metric, project: r.project, task: r.task, variant, level });

export const fitRef = (f: Fit): RecordRef => makeRef('p_d', f, f.variant, null);
export const cellRef = (c: Cell): RecordRef => makeRef('accuracy', c, c.variant, c.level);
export const sccRef = (s: Scc): RecordRef => makeRef('counting_capacity', s, null, null);
export const collapseRef = (c: Collapse): RecordRef => makeRef('collapse_threshold', c, null, null);

/** The fields a row names its record by, from a reference. */
export const refFields = (ref: RecordRef) => ({
  metric: ref.metric,
  project: ref.project,
  task: ref.task,
  variant: ref.variant,
  level: ref.level,
  where: whereOf(ref),
});

export const notCompared = (ref: RecordRef, kind: NotComparedKind, reason: string, levels?: number[]): NotCompared => ({
  ...refFields(ref),
  kind,
  reason,
  ...(levels ? { levels } : {}),
});

type Keyed = { project: string; task: string; variant: string };
const sameFit = (a: Keyed, b: Keyed) => a.project === b.project && a.task === b.task && a.variant === b.variant;
const sameCell = (a: Cell, b: Cell) =>
  a.project === b.project && a.task === b.task && a.variant === b.variant && a.level === b.level;
const sameTask = (a: { project: string; task: string }, b: { project: string; task: string }) =>
  a.project === b.project && a.task === b.task;

/** The other run's counterpart of a record, by its identity. */
export const counterpart = {
  fit: (run: Baseline, f: Fit) => run.fits.find((x) => sameFit(x, f)),
  cell: (run: Baseline, c: Cell) => run.cells.find((x) => sameCell(x, c)),
  scc: (run: Baseline, s: Scc) => run.scc.find((x) => sameTask(x, s)),
  collapse: (run: Baseline, c: Collapse) => run.collapse.find((x) => sameTask(x, c)),
};

const refsOf = (run: Baseline): RecordRef[] => [
  ...run.fits.map(fitRef),
  ...run.cells.map(cellRef),
  ...run.scc.map(sccRef),
  ...run.collapse.map(collapseRef),
];

/** Every project a run holds a record of, sorted. */
export const projectsOf = (run: Baseline): string[] => [...new Set(refsOf(run).map((r) => r.project))].sort();

const RECORD_NAME: Record<ComparedMetric, string> = {
  p_d: 'retention fit',
  tfbc_rate: 'retention fit',
  accuracy: 'cell',
  counting_capacity: 'SCC ladder',
  collapse_threshold: 'collapse fit',
};

/** Why the candidate has no counterpart: the most general thing it did not run (project, task, variant, level). */
export function absence(cand: Baseline, ref: RecordRef): string {
  const refs = refsOf(cand);
  const ran = `the candidate ${cand.name} ran`;
  const inProject = refs.filter((r) => r.project === ref.project);
  if (inProject.length === 0) return `${ran} no project ${ref.project}`;
  const inTask = inProject.filter((r) => r.task === ref.task);
  if (inTask.length === 0) return `${ran} no task ${ref.task} in project ${ref.project}`;
  if (ref.variant !== null && !inTask.some((r) => r.variant === ref.variant)) {
    return `${ran} no variant ${ref.variant} of ${ref.project}/${ref.task}`;
  }
  const of = `${ref.project}/${ref.task}${showVariant(ref.variant) ? ` ${ref.variant}` : ''}`;
  if (ref.level !== null) return `${ran} no level ${ref.level} of ${of}`;
  return `the candidate ${cand.name} has no ${RECORD_NAME[ref.metric]} of ${of}`;
}

/** "baseline <name>" or "candidate <name>": the side a reason speaks of. */
export const sideName = (run: Baseline, role: 'baseline' | 'candidate') => `${role} ${run.name}`;

const percent = (x: number) => `${Math.round(x * 1000) / 10}%`;

/**
 * Why a cell says nothing (undefined when it does), by the harness's rule: no answered trial, or missing / n above
 * maxMissingFraction — or the harness's own verdict, recorded in the baseline with the run's fraction.
 */
export function cellInsufficiency(cell: Cell, maxMissingFraction: number): string | undefined {
  const n = cell.missing === undefined ? undefined : cell.answered + cell.missing;
  const tooMany = cell.missing !== undefined && n !== undefined && n > 0 && cell.missing / n > maxMissingFraction;
  if (cell.answered > 0 && cell.status !== 'insufficient' && !tooMany) return undefined;
  if (cell.missing === undefined || n === undefined) return 'too many trials missing data';
  const share = `${cell.missing} of ${n} trials missing data (${percent(cell.missing / n)})`;
  // below the fraction on api/budget alone, yet judged insufficient by the run: it counted the trials its missing
  // rule set aside too (Format, Truncation under 'paper'), which a baseline does not keep
  return tooMany
    ? `${share}, above the ${percent(maxMissingFraction)} allowed`
    : `${share}; insufficient by the run's own verdict (its trials missing or set aside)`;
}

/** Why a fit says nothing on one side: its recorded status, or (the harness's rule) one of its cells insufficient. */
export function fitInsufficiency(run: Baseline, fit: Fit, maxMissingFraction: number): string | undefined {
  if (fit.status === 'insufficient') return fit.insufficientReason ?? 'too many trials missing data';
  const depths = fit.counts.map((c) => c.depth);
  const cells = run.cells.filter((c) => sameFit(c, fit) && depths.includes(c.level));
  const bad = cells.filter((c) => cellInsufficiency(c, maxMissingFraction) !== undefined).map((c) => c.level);
  if (bad.length === 0) return undefined;
  return `${bad.length} of ${cells.length} cell(s) insufficient (too many missing trials): levels ${formatLevels(bad)}`;
}

/** The cells behind a collapse fit (its task's cells). */
export const collapseCells = (run: Baseline, c: Collapse): Cell[] => run.cells.filter((x) => sameTask(x, c));

/** Why a collapse fit says nothing on one side: its recorded status, or one of its cells insufficient. */
export function collapseInsufficiency(run: Baseline, c: Collapse, maxMissingFraction: number): string | undefined {
  if (c.status === 'insufficient') return 'one of its levels has too many trials missing data';
  const bad = collapseCells(run, c).filter((x) => cellInsufficiency(x, maxMissingFraction) !== undefined);
  if (bad.length === 0) return undefined;
  return `levels ${formatLevels(bad.map((x) => x.level))} insufficient (too many missing trials)`;
}

/** A candidate's records the baseline has no counterpart of, in the projects `inScope` admits. */
export function newInCandidate(base: Baseline, cand: Baseline, inScope: (project: string) => boolean): NewRecord[] {
  const fresh: RecordRef[] = [
    ...cand.fits.filter((f) => !counterpart.fit(base, f)).map(fitRef),
    ...cand.cells.filter((c) => !counterpart.cell(base, c)).map(cellRef),
    ...cand.scc.filter((s) => !counterpart.scc(base, s)).map(sccRef),
    ...cand.collapse.filter((c) => !counterpart.collapse(base, c)).map(collapseRef),
  ];
  return fresh.filter((r) => inScope(r.project)).map(refFields);
}

/** `--only d2` covers project d2 and its per-subject projects d2@<label>. */
const covers = (name: string, project: string) => project === name || project.split('@')[0] === name;

export interface Scope {
  only: string[] | null;
  inScope: (project: string) => boolean;
  projects: string[];
  excluded: string[];
}

/**
 * The baseline records a comparison gates on: all of them, or those of the projects named by `only`. A name that
 * neither run has, or a scope holding no baseline record, is a usage error: a gate never passes on nothing.
 */
export function resolveScope(base: Baseline, cand: Baseline, only?: readonly string[]): Scope {
  const baseProjects = projectsOf(base);
  const names = only ? [...new Set(only.map((n) => n.trim()).filter((n) => n !== ''))] : null;
  const list = (run: Baseline) => projectsOf(run).join(', ') || 'none';
  const runsHave = `the baseline ${base.name} has ${list(base)}, the candidate ${cand.name} has ${list(cand)}`;
  if (names?.length === 0) throw new UsageError(`--only: name a project (${runsHave})`);
  if (names !== null) {
    const known = [...baseProjects, ...projectsOf(cand)];
    const unknown = names.filter((n) => !known.some((p) => covers(n, p)));
    if (unknown.length > 0) {
      throw new UsageError(`--only ${unknown.join(',')}: neither run has project ${unknown.join(', ')}; ${runsHave}`);
    }
  }
  const inScope = (project: string) => names === null || names.some((n) => covers(n, project));
  const projects = baseProjects.filter(inScope);
  if (projects.length === 0) {
    throw new UsageError(
      names === null
        ? `nothing to compare: the baseline ${base.name} holds no record`
        : `nothing to compare: the baseline ${base.name} has no record of ${names.join(', ')}; ${runsHave}`,
    );
  }
  return { only: names, inScope, projects, excluded: baseProjects.filter((p) => !inScope(p)) };
}
