import junitModule, { type Builder } from 'junit-report-builder';
import { hardFailures } from '../../src/gates/index.js';
import type { CellResult } from '../../src/schema/cell.js';
import type { Board, Leaderboard } from '../../src/schema/leaderboard.js';
import { type Provenance, servedText } from '../../src/schema/provenance.js';
import type { Report, SpendTotals } from '../../src/schema/report.js';
import { sccStopText } from '../../src/schema/scc-stop.js';
import { assaySpentOf } from './assay-spend.js';
import type { TestEntry } from './build.js';
import { cellSetAside, fixed, interval, percent } from './format.js';
import { boardTitle, headline, rankText } from './leaderboard.js';
import { addSpend, noSpend, roundUsd, spendOf, spendOfTrials } from './spend.js';

// The package assigns the builder to module.exports; its declarations describe it as an ES default export,
// which TypeScript's NodeNext resolution reads as `{ default: Builder }`.
const junitBuilder = junitModule as unknown as Builder;

type Properties = Record<string, string | number | null | undefined>;

function cellProperties(c: CellResult): Properties {
  return {
    task: c.task,
    level: c.level,
    n: c.n,
    accuracy: c.accuracy,
    accuracy_ci_low: c.ci95?.[0],
    accuracy_ci_high: c.ci95?.[1],
    k_star_mean: c.kStar.mean,
    tfbc: c.tfbc,
    missing: c.missing,
    cache_hits: c.cacheHits,
    tokens_completion: c.tokens.completion,
    ...(c.tokens.unknownUsage !== undefined ? { trials_without_usage: c.tokens.unknownUsage } : {}),
  };
}

function summaryLine(entry: TestEntry): string {
  const record = entry.meta?.record;
  if (!record) return entry.state;
  switch (record.kind) {
    case 'cell':
      return `${record.task} L=${record.level} n=${record.n}${record.samples ? ` distinct=${record.samples.distinct}` : ''} accuracy=${percent(record.accuracy)} set_aside=${percent(cellSetAside(record))} ${interval(record.ci95)} missing=${record.missing}`;
    case 'retention':
      if (record.status === 'insufficient')
        return `${record.task} p_d insufficient: ${record.insufficientReason ?? ''}`;
      return `${record.task} p_d=${fixed(record.pd)} set_aside=${percent(record.setAsideRate)} ${interval(record.ci95)} H0.5=${fixed(record.horizon['0.5']?.value, 2)} k*=${fixed(record.kStar.mean, 1)} tfbc_rate=${fixed(record.tfbcRate)}`;
    case 'collapse':
      return `${record.task} λ*=${record.collapseThreshold.levelIndex ?? 'undefined'}`;
    case 'ablation':
      return record.comparisons.map((c) => `${c.variant}: b=${c.b} c=${c.c} p=${fixed(c.p)}`).join('; ');
    case 'sccAssay':
      return `${record.assay}: ${Object.entries(record.summary)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ')}`;
    case 'scc':
      return record.stopped
        ? `${record.task} ${sccStopText(record.stopped)}`
        : `${record.task} cc=${record.cc} bounds=${record.ccLower}-${record.ccUpper ?? 'inf'}`;
  }
}

function properties(entry: TestEntry): Properties {
  const record = entry.meta?.record;
  if (!record) return {};
  switch (record.kind) {
    case 'cell':
      return cellProperties(record);
    case 'retention':
      // an insufficient fit has no estimate to export: its status says so
      if (record.status === 'insufficient')
        return { task: record.task, status: 'insufficient', missing_rule: record.missing };
      return {
        task: record.task,
        p_d: record.pd,
        pd_ci_low: record.ci95[0],
        pd_ci_high: record.ci95[1],
        horizon_0_5: record.horizon['0.5']?.value,
        k_star_mean: record.kStar.mean,
        tfbc_rate: record.tfbcRate,
        format_rate: record.formatRate,
        truncation_rate: record.truncationRate,
        ...(record.refusalRate !== undefined ? { refusal_rate: record.refusalRate } : {}),
        missing_rule: record.missing,
      };
    case 'collapse':
      return { task: record.task, collapse_threshold: record.collapseThreshold.levelIndex };
    case 'ablation':
      return Object.fromEntries(record.comparisons.map((c) => [`mcnemar_p_${c.variant}`, c.p]));
    case 'sccAssay':
      return Object.fromEntries(Object.entries(record.summary).map(([k, v]) => [`${record.assay}_${k}`, v]));
    case 'scc':
      // a stopped ladder measured no CC: its lower bound so far, and why it stopped, never a counting_capacity
      return record.stopped
        ? { task: record.task, cc_lower: record.ccLower, stopped: record.stopped.reason, tiers: record.stopped.tiers }
        : { task: record.task, counting_capacity: record.cc, cc_lower: record.ccLower, cc_upper: record.ccUpper };
  }
}

/** What a suite or case spent, as properties; a cost only when it is known. */
function spendProperties(t: SpendTotals): Properties {
  return {
    spend_calls: t.calls,
    spend_paid_trials: t.paid.trials,
    spend_cached_trials: t.fromCache.trials,
    spend_prompt_tokens: t.paid.prompt,
    spend_cached_prompt_tokens: t.paid.cachedPrompt,
    spend_completion_tokens: t.paid.completion,
    spend_reasoning_tokens: t.paid.reasoning,
    spend_cost_usd: roundUsd(t.paid.costUsd),
    spend_saved_usd: roundUsd(t.fromCache.savedUsd),
  };
}

/** The spend of a test's cells (a cell test's own, a fit's adaptive depths) and assay record at its subject's price. */
function entrySpend(report: Report, entry: TestEntry): SpendTotals | null {
  const meta = entry.meta;
  if (!meta || !report.spend) return null;
  const cells = [...(meta.cells ?? []), ...(meta.record.kind === 'cell' ? [meta.record] : [])];
  const assay = meta.record.kind === 'scc' || meta.record.kind === 'sccAssay' ? assaySpentOf(meta.record) : null;
  if (cells.length === 0 && !assay) return null;
  const price = report.spend.subjects.find((s) => s.subject === meta.subject.spec)?.price ?? null;
  const start = assay ? spendOf(assay.billables, price) : noSpend(true);
  return cells.reduce((sum, c) => addSpend(sum, spendOfTrials(c.trials, price)), start);
}

/** A board's properties: each subject's rank, headline and interval, and the relations between adjacent ranks. */
function boardProperties(board: Board): Properties {
  const out: Properties = { board: board.kind, task: board.task, paired: String(board.paired) };
  for (const e of board.entries) {
    const key = e.subject;
    out[`leaderboard_rank_${key}`] = rankText(e);
    if (board.kind === 'retention' && 'pd' in e) {
      out[`leaderboard_p_d_${key}`] = e.pd;
      out[`leaderboard_p_d_ci_low_${key}`] = e.ci95[0];
      out[`leaderboard_p_d_ci_high_${key}`] = e.ci95[1];
    } else if (board.kind === 'collapse' && 'levelIndex' in e) {
      out[`leaderboard_collapse_threshold_${key}`] = e.levelIndex;
      out[`leaderboard_accuracy_${key}`] = e.accuracy;
    } else if ('cc' in e) {
      out[`leaderboard_cc_${key}`] = e.cc;
      out[`leaderboard_cc_lower_${key}`] = e.ccLower;
      out[`leaderboard_cc_upper_${key}`] = e.ccUpper;
    }
  }
  board.relations.forEach((r, i) => {
    out[`leaderboard_relation_${i + 1}`] = r.text;
  });
  return out;
}

/** The leaderboard suite: a case per board, its standings as properties and as the case's output. */
function addLeaderboard(builder: Builder, leaderboard: Leaderboard, timestamp: string): void {
  const suite = builder.testSuite().name('leaderboard').timestamp(timestamp).time(0);
  suite.property('alpha', String(leaderboard.alpha));
  suite.property('resamples', String(leaderboard.resamples));
  for (const { project, boards } of leaderboard.projects) {
    for (const board of boards) {
      const title = boardTitle(project, board);
      const testCase = suite.testCase().className(`leaderboard.${project}`).name(`leaderboard · ${title}`).time(0);
      for (const [key, value] of Object.entries(boardProperties(board)))
        if (value !== null && value !== undefined) testCase.property(key, String(value));
      testCase.standardOutput(
        [
          ...board.entries.map((e) => `${rankText(e)}. ${e.subject}: ${headline(board, e)}`),
          ...board.relations.map((r) => r.text),
        ].join('\n'),
      );
    }
  }
}

/**
 * A case's name: the test's, and with several subjects the subject where the name does not already say it
 * (the per-subject project `d2@<label>` or the spec), so that every case name is unique and names its subject.
 */
function caseNamer(report: Report): (entry: TestEntry) => string {
  if (report.subjects.length < 2) return (entry) => entry.name;
  return (entry) => {
    const spec = entry.meta?.subject.spec;
    const at = entry.project.indexOf('@');
    const label = at >= 0 ? entry.project.slice(at + 1) : spec;
    if (!label || entry.name.includes(label) || (spec && entry.name.includes(spec))) return entry.name;
    return `${entry.name} · ${label}`;
  };
}

/**
 * The provenance as suite properties (`provenance.seed`, `provenance.subject.<label>.served`, …): a CI that reads
 * JUnit alone sees which model, under which settings, produced the suite's numbers.
 */
function provenanceProperties(p: Provenance, mine: (label: string) => boolean): Array<[string, string]> {
  const rows: Array<[string, string]> = [];
  for (const s of p.subjects.filter((x) => mine(x.label))) {
    const at = `provenance.subject.${s.label}`;
    rows.push([`${at}.kind`, s.kind]);
    if (s.requestedModel !== null) rows.push([`${at}.requested_model`, s.requestedModel]);
    if (s.requestedModel !== null || s.servedModels.length > 0) rows.push([`${at}.served_models`, servedText(s)]);
    if (s.endpointHost) rows.push([`${at}.endpoint_host`, s.endpointHost]);
    if (s.code) rows.push([`${at}.${s.code.pinned ? 'pinned_version' : 'code_hash'}`, s.code.version]);
  }
  const settings: Record<string, string | number | null | undefined> = {
    seed: p.seed,
    trials: p.trials,
    design: p.design,
    missing_rule: p.missingRule,
    max_missing_fraction: p.maxMissingFraction,
    reading_profile: p.readingProfile,
    prompt_profiles: p.promptProfiles.join(','),
    package_version: p.packageVersion,
    vitest_version: p.vitestVersion,
  };
  for (const [key, value] of Object.entries(settings))
    if (value !== null && value !== undefined) rows.push([`provenance.${key}`, String(value)]);
  return rows;
}

/** junit.xml: a testsuite per project, a testcase per cell and fit, metrics as properties, a `gate` case. */
export function renderJunit(report: Report, entries: readonly TestEntry[]): string {
  const builder = junitBuilder.newBuilder();
  builder.name('ceilingbench');
  const caseName = caseNamer(report);
  // a gate across subjects is keyed by its project ('d2') while the subjects ran as 'd2@<label>': its own suite
  const gateOnly = report.gates.map((g) => g.project).filter((p) => !entries.some((e) => e.project === p));
  const projects = [...new Set([...entries.map((e) => e.project), ...gateOnly])].sort();
  for (const project of projects) {
    const projectEntries = entries.filter((e) => e.project === project);
    const suite = builder
      .testSuite()
      .name(project)
      .timestamp(report.timing.startedAt)
      .time(projectEntries.reduce((s, e) => s + e.durationMs, 0) / 1000);
    // with several subjects a suite names the subjects of its own tests (a per-subject project: one)
    const own = new Set(projectEntries.flatMap((e) => (e.meta ? [e.meta.subject.spec] : [])));
    for (const subject of report.subjects)
      if (report.subjects.length < 2 || own.has(subject.spec)) suite.property('subject', subject.spec);
    if (report.provenance)
      for (const [key, value] of provenanceProperties(
        report.provenance,
        (s) => report.subjects.length < 2 || own.has(s),
      ))
        suite.property(key, value);
    const projectSpend = report.spend?.projects.find((p) => p.project === project);
    if (projectSpend)
      for (const [key, value] of Object.entries(spendProperties(projectSpend)))
        if (value !== null && value !== undefined) suite.property(key, String(value));
    for (const entry of projectEntries) {
      const record = entry.meta?.record;
      const testCase = suite
        .testCase()
        .className(`${project}.${record && 'task' in record ? record.task : 'test'}`)
        .name(caseName(entry))
        .file(entry.file)
        .time(entry.durationMs / 1000)
        .standardOutput(summaryLine(entry));
      const spend = entrySpend(report, entry);
      for (const [key, value] of Object.entries({ ...properties(entry), ...(spend ? spendProperties(spend) : {}) })) {
        if (value !== null && value !== undefined) testCase.property(key, String(value));
      }
      const insufficient = record?.kind === 'cell' && record.status === 'insufficient';
      if (insufficient) {
        testCase.error(
          `insufficient data: ${record.setAside ?? record.missing} of ${record.n} trials are missing data or set aside (${percent(cellSetAside(record))}: API failures, not sent, or under the paper rule Format and Truncation)`,
          'missing-data',
        );
      } else if (entry.state === 'failed') {
        testCase.failure(entry.errors[0] ?? 'failed', 'assertion');
      } else if (entry.state === 'skipped') {
        testCase.skipped();
      }
    }
    const gates = report.gates.filter((g) => g.project === project);
    const gateCase = suite.testCase().className(`${project}.gate`).name(`${project} · gate`).time(0);
    gateCase.standardOutput(gates.length === 0 ? 'no gates configured' : gates.map((g) => g.message).join('\n'));
    // a gate a fit test evaluated fails that test (its case above, with its file); the gate case fails only on
    // the gates no test carries (not evaluated, across subjects), so each failure is counted once
    const carried = new Set(
      projectEntries.flatMap((e) => (e.state === 'failed' ? (e.meta?.gates ?? []) : [])).map((g) => g.message),
    );
    const failed = hardFailures(gates).filter((g) => !carried.has(g.message));
    if (failed.length > 0) gateCase.failure(failed.map((g) => g.message).join('; '), 'gate');
  }
  if (report.leaderboard) addLeaderboard(builder, report.leaderboard, report.timing.startedAt);
  return builder.build();
}
