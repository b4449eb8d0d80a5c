import type { Report } from '../../../src/schema/report.js';
import { byKey } from '../order.js';

/**
 * Attribution of a merge's records: which subject answered each record, and which run (subject, run seed) it
 * belongs to. The rules are reporters/projections/merge/reports.ts's.
 */

export interface MergeInput {
  /** How the input is named in messages (the path as given). */
  name: string;
  report: Report;
}

export type AnyRecord =
  | Report['cells'][number]
  | Report['fits'][number]
  | Report['collapse'][number]
  | Report['ablations'][number]
  | Report['scc'][number]
  | Report['sccAssays'][number];

export interface RecordArrays {
  cells: Report['cells'];
  fits: Report['fits'];
  collapse: Report['collapse'];
  ablations: Report['ablations'];
  scc: Report['scc'];
  sccAssays: Report['sccAssays'];
}

export const RECORD_ARRAYS = ['cells', 'fits', 'collapse', 'ablations', 'scc', 'sccAssays'] as const;

/** The records of one subject and run seed, from every input that holds some. */
export interface Group {
  spec: string;
  seed: number | null;
  /** Inputs the group's records came from. */
  names: string[];
  /** Each record's identity (recordKeyOf) and the input that holds it. */
  keys: Map<string, string>;
  records: RecordArrays;
}

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

const groupKey = (spec: string, seed: number | null) => `${spec}\u0000${seed ?? ''}`;

/** Every input's records by (subject, run seed); the same subject and seed twice unites, a record twice throws. */
export function groupRecords(inputs: readonly MergeInput[]): Group[] {
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
