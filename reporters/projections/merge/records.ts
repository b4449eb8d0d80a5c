import type { Report } from '../../../src/schema/report.js';
import { byKey } from '../order.js';
import type { AnyRecord, Group, RecordArrays } from './attribution.js';

/**
 * The records, gates and tests of merged runs united in report order: by project (an SCC assay: by assay), task
 * and the record's own keys, then subject; the subjects' groups in their order before that, so ties keep it.
 */

type Key<T> = (x: T) => string | number;
const projectOf = (x: { project: string }) => x.project;
const taskOf = (x: { task: string }) => x.task;
const subjectOf = (x: { subject?: string }) => x.subject ?? '';

type Row<K extends keyof RecordArrays> = RecordArrays[K][number];
type Order<K extends keyof RecordArrays> = (a: Row<K>, b: Row<K>) => number;

/** Merged report order: by project, task and the given keys, then subject (a run's report: subject before the keys). */
const mergeOrder = <T extends { project: string; task: string; subject?: string }>(...then: Array<Key<T>>) =>
  byKey<T>(projectOf, taskOf, ...then, subjectOf);

const REPORT_ORDER: { [K in keyof RecordArrays]: Order<K> } = {
  cells: mergeOrder(
    (c) => c.variant,
    (c) => c.level,
  ),
  fits: mergeOrder((f) => f.variant),
  collapse: mergeOrder(),
  ablations: mergeOrder((a) => a.level),
  scc: mergeOrder(),
  sccAssays: byKey<Row<'sccAssays'>>((s) => s.assay, taskOf, subjectOf),
};

/** Every group's records of each kind in report order; the keys in a report's order too (mergeReports spreads them). */
export function mergedRecords(groups: readonly Group[]): RecordArrays {
  const pick = <K extends keyof RecordArrays>(array: K): RecordArrays[K] =>
    groups
      .flatMap((g) => g.records[array] as AnyRecord[])
      .sort(REPORT_ORDER[array] as (a: AnyRecord, b: AnyRecord) => number) as RecordArrays[K];
  return {
    cells: pick('cells'),
    fits: pick('fits'),
    collapse: pick('collapse'),
    ablations: pick('ablations'),
    scc: pick('scc'),
    sccAssays: pick('sccAssays'),
  };
}

/** Every run's gates, each stamped with its run's only subject where it names none. */
export const mergedGates = (reports: readonly Report[]): Report['gates'] =>
  reports
    .flatMap((r) =>
      r.gates.map((g) =>
        g.subject !== undefined || r.subjects.length !== 1 ? g : { ...g, subject: r.subjects[0].spec },
      ),
    )
    .sort(byKey<Report['gates'][number]>(projectOf, taskOf, (g) => g.gate, subjectOf));

export const mergedTests = (reports: readonly Report[]): Report['tests'] =>
  reports
    .flatMap((r) => r.tests)
    .sort(
      byKey<Report['tests'][number]>(
        projectOf,
        (t) => t.file,
        (t) => t.name,
      ),
    );
