import type { ProjectGates } from '../config/schema.js';
import type { GateResult } from '../schema/gate.js';
import type { Requirement, RequirementOutcome } from '../schema/manifest.js';
import { crossSubjectGates, type GatedEntry } from './cross-subject.js';
import type { DeclaredFit, Evidence, EvidenceRecord } from './evidence.js';
import { gateSettingMismatches, measurementMismatches } from './identity.js';
import { servedModelGates } from './served-model.js';
import { gateLine } from './threshold.js';

export interface VerdictInput {
  configured: Readonly<Record<string, ProjectGates>>;
  /** The evidence manifest (src/gates/manifest.ts): every record the configured hard gates need. */
  requirements: readonly Requirement[];
  evidence: Evidence;
  /** The threshold gates the tests evaluated on their records (as the report keeps them). */
  measured: readonly GateResult[];
  /** The finished tests, for the gates across subjects (notWorseThan). */
  entries: readonly GatedEntry[];
  /** The run seed (the notWorseThan bootstrap's root). */
  seed: number;
  resamples?: number;
  /**
   * Needs a stored report judged when its run ended (`compare` of a ceilingbench.json: the tests whose declarations
   * and spec files the judgement read are gone): each outcome stands, and one not evaluated fails as one judged here.
   */
  settled?: readonly RequirementOutcome[];
}

export interface Verdict {
  /** Every gate result: what the tests evaluated, the gates across subjects, and each need not met (failed). */
  gates: GateResult[];
  /** Each needed record with what it got. */
  outcomes: RequirementOutcome[];
}

/** A need made concrete: a requirement with its record known, or a spec file that was not collected. */
type Row = Requirement & { test?: string };

const vitestProject = (project: string): string => project.replace(/@[^@]*$/, '');

/** `d2 retention fit (variant standard, levels 5…50)`, `spec file benchmarks/x.spec.ts`: what a row needs. */
export function describeNeed(r: Requirement): string {
  if (r.task === undefined)
    return r.file !== undefined
      ? `every ${r.fit} fit of spec file ${r.file}`
      : `a ${r.fit} record (project '${r.project}' declares none)`;
  const parts = [
    ...(r.variant !== undefined ? [`variant ${r.variant}`] : []),
    ...(r.levels && r.levels.length > 0 ? [`levels ${r.levels[0]}…${r.levels[r.levels.length - 1]}`] : []),
  ];
  return `${r.task} ${r.fit} fit${parts.length > 0 ? ` (${parts.join(', ')})` : ''}`;
}

/** The concrete needs of a requirement: a grid record as is; a spec file's fits once it is collected. */
function rowsOf(req: Requirement, evidence: Evidence): Row[] {
  if (req.task !== undefined || req.file === undefined) return [req];
  const file = req.file;
  const collected = evidence.collected;
  if (collected && !collected.some((c) => c.file === file && c.project === vitestProject(req.project))) return [req];
  const rows = new Map<string, Row>();
  const add = (task: string, variant: string | undefined, profile: string | undefined, own?: DeclaredFit) => {
    const key = `${task}\u0000${variant ?? ''}`;
    if (!rows.has(key))
      rows.set(key, {
        ...req,
        // a sweep the spec file gave its own subject is answered by it (declared before it ran)
        ...(own?.subject !== undefined ? { subject: own.subject } : {}),
        task,
        ...(variant !== undefined ? { variant } : {}),
        ...(profile !== undefined ? { profile } : {}),
        ...(own !== undefined ? { test: own.name } : {}),
      });
  };
  for (const d of evidence.declared ?? [])
    if (d.project === req.project && d.file === file && d.fit === req.fit) add(d.task, d.variant, d.profile, d);
  for (const r of evidence.records)
    if (r.project === req.project && r.file === file && r.kind === req.fit) add(r.task, r.variant, r.profile);
  // collected and declaring nothing this gate reads: it needs nothing of this file
  return [...rows.values()];
}

const route = (filters: string | undefined, otherwise: string): string =>
  filters ? `this run's filters: ${filters}` : otherwise;

/** Why a needed record is absent: which filter or route dropped it. */
function whyAbsent(row: Row, evidence: Evidence): string {
  const project = vitestProject(row.project);
  const ran = evidence.ran.includes(row.project) || evidence.ran.includes(project);
  if (!ran)
    return `project '${row.project}' did not run (${route(evidence.filters, 'in no shard or blob of this run')})`;
  const head = `no finished record in project '${row.project}' for ${describeNeed(row)}`;
  if (row.task === undefined && row.file !== undefined)
    return `${head}: spec file ${row.file} was not collected (${route(evidence.filters, 'excluded or not found')})`;
  if (row.task === undefined) return `${head}: check the gate name`;
  const decl: DeclaredFit | undefined = (evidence.declared ?? []).find(
    (d) =>
      d.project === row.project &&
      d.task === row.task &&
      d.fit === row.fit &&
      (row.variant === undefined || d.variant === row.variant),
  );
  if (decl?.state === 'skipped' || decl?.state === 'pending') {
    const by = evidence.nameFilter
      ? `the test name filter -t ${evidence.nameFilter}`
      : 'describe.skip, test.skip, .only or .todo in its spec file';
    return `${head}: its fit test '${decl.name}' was skipped (${by})`;
  }
  if (decl?.state === 'failed')
    return `${head}: its fit test '${decl.name}' failed without a record${decl.errors[0] ? ` (${decl.errors[0].split('\n')[0].slice(0, 200)})` : ''}`;
  if (evidence.collected)
    return `${head}: the spec file that declares it was not collected (${route(evidence.filters, 'a file filter or exclude')})`;
  return `${head} (check that the fit test ran${evidence.filters ? `; this run's filters: ${evidence.filters}` : ''})`;
}

const levelsMissing = (need: readonly number[] | undefined, got: readonly number[] | undefined): number[] =>
  need && got ? need.filter((l) => !got.includes(l)) : [];

/** What one concrete need got, and the record's gate result when it was evaluated. */
function judgeRow(row: Row, evidence: Evidence): RequirementOutcome {
  const out = (got: RequirementOutcome['got'], detail: string): RequirementOutcome => {
    const { test: _test, ...req } = row;
    return { ...req, got, detail };
  };
  // a spec file that was not collected: everything in it is missing
  if (row.task === undefined && row.file !== undefined) return out('not evaluated', whyAbsent(row, evidence));
  // a need whose record is not known ahead (no declaration): every record of the gate's kind in the project
  const candidates = evidence.records.filter(
    (r) =>
      r.project === row.project &&
      r.kind === row.fit &&
      (row.task === undefined || r.task === row.task) &&
      (row.variant === undefined || r.variant === undefined || r.variant === row.variant),
  );
  if (candidates.length === 0) return out('not evaluated', whyAbsent(row, evidence));
  const expected = { subject: row.subject, seed: row.seed, ...(row.profile ? { profile: row.profile } : {}) };
  const mine = candidates.filter((r) => measurementMismatches(expected, r).length === 0);
  if (mine.length === 0) {
    const why = [...new Set(candidates.flatMap((r) => measurementMismatches(expected, r)))].join('; ');
    return out('not evaluated', `${describeNeed(row)} in project '${row.project}' was ${why}`);
  }
  const results = mine.map((r) => judgeRecord(row, r));
  return results.find((r) => r.got === 'not evaluated') ?? results.find((r) => r.got === 'failed') ?? results[0];

  function judgeRecord(need: Row, r: EvidenceRecord): RequirementOutcome {
    if (!r.sufficiency.ok)
      return out('not evaluated', `${describeNeed(need)} in project '${need.project}': ${r.sufficiency.why}`);
    const lacking = levelsMissing(need.levels, r.levels);
    if (lacking.length > 0)
      return out(
        'not evaluated',
        `${describeNeed(need)} in project '${need.project}' is partial: levels ${lacking.join(', ')} missing`,
      );
    if (need.gate === 'notWorseThan') return out('passed', 'present (the comparison across subjects decides)');
    const gate = r.gates.find((g) => g.gate === need.gate);
    if (!gate)
      return out(
        'not evaluated',
        `${describeNeed(need)} in project '${need.project}': its test evaluated no ${need.gate}`,
      );
    const wrong = gateSettingMismatches(need, gate);
    if (wrong.length > 0) {
      return out(
        'not evaluated',
        `not evaluated at this threshold — ${describeNeed(need)} in project '${need.project}' was ${wrong.join('; ')}; rerun with this configuration's gates, or merge with the gates it ran with`,
      );
    }
    return out(gate.passed ? 'passed' : 'failed', gate.message);
  }
}

/**
 * THE verdict of a run, a merge of blobs, `report` and `compare`: every record the manifest needs present,
 * finished, sufficient, measured by the configured subject, seed and prompt profile, gated at the configured
 * threshold, mode and evidence — and passing. Whatever is needed and absent or partial fails as "not evaluated",
 * naming what is missing and which filter or route dropped it. The exit code is `hardFailures(gates)`.
 */
export function decideVerdict(input: VerdictInput): Verdict {
  const cross = crossSubjectGates(input.configured, input.entries, input.seed, input.resamples);
  const outcomes = [
    ...(input.settled ?? []),
    ...input.requirements.flatMap((req) => rowsOf(req, input.evidence).map((row) => judgeRow(row, input.evidence))),
  ];
  // one failed gate line per gate, project and cause: a project that did not run is one line, not one per record
  const unmet = new Map<string, { outcome: RequirementOutcome; needs: string[] }>();
  for (const o of outcomes) {
    if (o.got !== 'not evaluated') continue;
    const cause = o.detail;
    const key = [o.key, o.gate, o.project, cause].join('\u0000');
    const group = unmet.get(key) ?? { outcome: o, needs: [] };
    group.needs.push(describeNeed(o));
    unmet.set(key, group);
  }
  const failed: GateResult[] = [...unmet.values()].map(({ outcome: o, needs }) => {
    const why = o.detail.startsWith('not evaluated') ? o.detail : `not evaluated — ${o.detail}`;
    const needed = needs.length > 1 || o.task === undefined ? `; needed: ${[...new Set(needs)].join(', ')}` : '';
    return {
      project: o.project,
      task: needs.length === 1 && o.task !== undefined ? o.task : '*',
      gate: o.gate,
      mode: o.mode,
      threshold: o.threshold,
      estimate: null,
      ci95: null,
      passed: false,
      message: gateLine(o.key, o.gate, false, o.mode, `${why}${needed}`),
      ...(o.subject !== '*' ? { subject: o.subject } : {}),
    };
  });
  // the served model against the one asked for (docs/providers.md#the-served-model)
  const served = servedModelGates(input.configured, input.entries);
  return { gates: [...input.measured, ...cross, ...served, ...failed], outcomes };
}
