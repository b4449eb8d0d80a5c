import { resolve } from 'node:path';
import { fixed } from '../../../reporters/projections/format.js';
import { unfinishedRunNote } from '../../../reporters/projections/report-set.js';
import { terminalSafe } from '../../../reporters/projections/safe-text.js';
import {
  type Comparison,
  compareRuns,
  loadRun,
  type MetricComparison,
  NOT_COMPARED_KINDS,
  type NotCompared,
  type NotComparedKind,
} from '../../compare/index.js';
import { formatLevels } from '../../compare/levels.js';
import { hardFailures } from '../../gates/index.js';
import { type Provenance, provenanceSettingsText, provenanceSubjectText } from '../../schema/provenance.js';
import type { RegisterCommand } from '../command.js';
import { UsageError } from '../errors.js';
import { COMMAND_HELP } from './table.js';

const KIND_HEADING: Record<NotComparedKind, string> = {
  absent: 'absent from the candidate',
  'other-levels': 'other levels',
  insufficient: 'insufficient (too many trials missing data)',
  stopped: 'SCC ladder stopped',
  'no-answered-trials': 'no answered trial',
  'no-estimate': 'no estimate on one side',
  'other-rule': 'other missing-data rule',
};

const named = (r: { project: string; task: string; metric: string; where: string }) =>
  `${r.project} ${r.task} ${r.metric}${r.where ? ` (${r.where})` : ''}`;

function metricLine(m: MetricComparison): string {
  const evidence = m.ci95
    ? `[${fixed(m.ci95[0])}, ${fixed(m.ci95[1])}]`
    : m.p !== null
      ? `p=${m.p.toPrecision(3)}`
      : '–';
  const verdict = m.regression ? `**REGRESSION**: ${m.reason}` : m.reason;
  return `| ${m.metric} | ${m.task} | ${m.where || '–'} | ${fixed(m.baseline)} | ${fixed(m.candidate)} | ${fixed(m.difference)} | ${evidence} | ${verdict} |`;
}

function scopeLines(c: Comparison): string[] {
  if (c.scope.only === null) return [];
  const excluded = c.scope.excluded.length > 0 ? `; not in scope: ${c.scope.excluded.join(', ')}` : '';
  return [`scope: --only ${c.scope.only.join(',')} — baseline projects ${c.scope.projects.join(', ')}${excluded}`];
}

const LEVELS = '\u0000levels\u0000';
const levelPattern = (level: number) => new RegExp(`\\blevel ${String(level).replace('.', '\\.')}\\b`, 'g');

/** Cells of one sweep left out for the same reason share a line: "d1 d1 accuracy (levels 5–50): …". */
function mergedLines(rows: NotCompared[], c: Comparison): string[] {
  const groups = new Map<string, NotCompared[]>();
  for (const n of rows) {
    const key =
      n.metric === 'accuracy' && n.level !== null
        ? [n.project, n.task, n.variant, n.reason.replace(levelPattern(n.level), LEVELS)].join('\n')
        : `${groups.size}\n${named(n)}`;
    groups.set(key, [...(groups.get(key) ?? []), n]);
  }
  return [...groups.values()].map((group) => {
    const [first] = group;
    if (group.length === 1 || first.level === null) return `- ${named(first)}: ${first.reason}`;
    const sweep = (r: { project: string; task: string; variant: string | null }) =>
      r.project === first.project && r.task === first.task && r.variant === first.variant;
    const universe = [...c.metrics, ...c.notCompared].filter((r) => r.metric === 'accuracy' && sweep(r));
    const levels = `levels ${formatLevels(
      group.map((n) => n.level as number),
      universe.map((r) => r.level as number),
    )}`;
    const reason = first.reason.replace(levelPattern(first.level), LEVELS).replaceAll(LEVELS, levels);
    const where = first.where.replace(levelPattern(first.level), levels);
    return `- ${first.project} ${first.task} ${first.metric} (${where}): ${reason}`;
  });
}

/** The not-compared rows, grouped by why. */
function notComparedLines(c: Comparison): string[] {
  if (c.notCompared.length === 0) return [];
  const lines = ['', `${c.notCompared.length} not compared (the gate fails on them):`];
  for (const kind of NOT_COMPARED_KINDS) {
    const rows = c.notCompared.filter((n) => n.kind === kind);
    if (rows.length === 0) continue;
    lines.push(`${KIND_HEADING[kind]} (${rows.length}):`, ...mergedLines(rows, c));
  }
  return lines;
}

/** Candidate records without a baseline counterpart, a line per project, task, metric and variant. */
function newLines(c: Comparison): string[] {
  if (c.newInCandidate.length === 0) return [];
  const groups = new Map<string, string[]>();
  for (const r of c.newInCandidate) {
    const head = `${r.project} ${r.task} ${r.metric}${r.variant !== null ? ` (${r.variant})` : ''}`;
    groups.set(head, [...(groups.get(head) ?? []), ...(r.level !== null ? [String(r.level)] : [])]);
  }
  const lines = ['', `${c.newInCandidate.length} new in the candidate (not gated):`];
  for (const [head, levels] of groups)
    lines.push(`- ${head}${levels.length > 0 ? `: levels ${levels.join(', ')}` : ''}`);
  return lines;
}

/** Both sides' provenance first, then what differs between them: what was compared, before any number. */
function provenanceLines(c: Comparison): string[] {
  const block = (side: string, name: string, p: Provenance) => [
    `${side} ${name}:`,
    ...p.subjects.map((s) => `  subject ${provenanceSubjectText(s)}`),
    `  ${provenanceSettingsText(p)}`,
  ];
  const { differences } = c.provenance;
  return [
    ...block('baseline', c.baseline, c.provenance.baseline),
    ...block('candidate', c.candidate, c.provenance.candidate),
    differences.length === 0
      ? 'same subject, settings and versions on both sides'
      : `${differences.length} difference(s) between the sides:`,
    ...differences.map((d) => `- ${d}`),
    ...(c.provenance.warning ? [`WARNING: ${c.provenance.warning}`] : []),
    '',
  ];
}

/** The candidate's own hard gates that failed or went unchecked (its run's verdict, decided again). */
const ownFailures = (c: Comparison) => hardFailures(c.candidateGates);

/** The candidate's own gates (a ceilingbench.json's): failed hard ones each on a line, the rest counted. */
function candidateGateLines(c: Comparison): string[] {
  if (c.candidateGates.length === 0) return [];
  const failed = ownFailures(c);
  if (failed.length === 0)
    return ['', `the candidate's own gates: ${c.candidateGates.length}, no hard gate failed or went unchecked`];
  return [
    '',
    `the candidate's own gates: ${failed.length} hard gate(s) failed or not evaluated (compare fails on them):`,
    ...failed.map((g) => `- ${g.subject ? `[${terminalSafe(g.subject)}] ` : ''}${terminalSafe(g.message)}`),
  ];
}

function table(c: Comparison, unfinished: readonly string[] = []): string {
  const lines = [
    ...provenanceLines(c).map(terminalSafe),
    `baseline ${c.baseline} → candidate ${c.candidate}`,
    ...scopeLines(c),
    '',
  ];
  if (c.metrics.length === 0) lines.push('no metric compared');
  else {
    lines.push(
      '| metric | task | where | baseline | candidate | change | 95% CI / p | verdict |',
      '|---|---|---|---|---|---|---|---|',
      ...c.metrics.map(metricLine),
    );
  }
  lines.push('', c.regressions.length === 0 ? 'no regression' : `${c.regressions.length} regression(s):`);
  for (const r of c.regressions) lines.push(`- ${named(r)}: ${r.reason}`);
  lines.push(...notComparedLines(c), ...newLines(c), ...candidateGateLines(c), '');
  const warnings = [...(c.provenance.warning ? [c.provenance.warning] : []), ...unfinished];
  const warning = warnings.map((w) => ` — WARNING: ${terminalSafe(w)}`).join('');
  lines.push(
    (c.passed && unfinished.length === 0
      ? 'PASS: every baseline record in scope was compared, and none regressed'
      : `FAIL: ${[
          ...(c.regressions.length > 0 ? [`${c.regressions.length} regression(s)`] : []),
          ...(c.notCompared.length > 0 ? [`${c.notCompared.length} not compared`] : []),
          ...(ownFailures(c).length > 0 ? [`${ownFailures(c).length} hard gate(s) of the candidate failed`] : []),
          ...(unfinished.length > 0 ? [`${unfinished.length} report(s) from a run that did not finish`] : []),
        ].join(', ')}`) + warning,
  );
  return `${lines.join('\n')}\n`;
}

function tolerance(name: string, value: string | number | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new UsageError(`--${name}: '${value}' is not a non-negative number`);
  return n;
}

/** `--only a,b --only c` → [a, b, c]; undefined when not given. */
function onlyProjects(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  if (value === true || value === '') throw new UsageError('--only: name a project or a comma list, e.g. --only d2');
  return [value]
    .flat()
    .flatMap((v) => String(v).split(','))
    .map((s) => s.trim());
}

/**
 * `ceilingbench compare <baseline> <candidate>`: statistical regression gate over every baseline record in scope;
 * exit 1 on a regression, on a record it did not compare, or on a hard gate of the candidate's own run that failed
 * or was not evaluated (src/compare/verdict.ts); 0 only when all were compared, none regressed and none failed.
 */
export const registerCompare: RegisterCommand = (cli, io) => {
  cli
    .command(COMMAND_HELP.compare.usage, COMMAND_HELP.compare.description)
    .option(
      '--only <projects>',
      'Gate only these projects of the baseline (comma list, repeatable; d2 covers d2@<label>)',
    )
    .option('--json', 'Machine-readable output')
    .option('--tolerance-pd <x>', 'p_d drop tolerated (default 0.01)')
    .option('--tolerance-accuracy <x>', 'Cell accuracy drop tolerated (default 0.05)')
    .option('--tolerance-cc <x>', 'Relative CC drop tolerated (default 0.05)')
    .option('--alpha <x>', 'Family-wise significance level (default 0.05)')
    .example('ceilingbench compare baselines/gpt-x-2026-10.json reports/ceilingbench.json --only d2')
    .action((basePath: string, candPath: string, flags: Record<string, unknown>) => {
      const load = (path: string) => {
        try {
          return loadRun(path, (line) => io.stderr(`ceilingbench: warning: ${line}\n`));
        } catch (error) {
          throw new UsageError((error as Error).message);
        }
      };
      const tolerances = Object.fromEntries(
        Object.entries({
          retention: tolerance('tolerance-pd', flags.tolerancePd as string | undefined),
          accuracy: tolerance('tolerance-accuracy', flags.toleranceAccuracy as string | undefined),
          countingCapacity: tolerance('tolerance-cc', flags.toleranceCc as string | undefined),
          alpha: tolerance('alpha', flags.alpha as string | undefined),
        }).filter(([, v]) => v !== undefined),
      );
      const only = onlyProjects(flags.only);
      const candidate = load(candPath);
      const comparison = compareRuns(load(basePath).record, candidate.record, {
        tolerances,
        only,
        ...(candidate.verdict ? { candidateVerdict: candidate.verdict } : {}),
      });
      // a report whose run did not finish (killed, or still running) is flagged: its numbers are an earlier run's
      const unfinished = [basePath, candPath].flatMap((path) => {
        const note = unfinishedRunNote(resolve(path));
        return note ? [note] : [];
      });
      for (const note of unfinished) io.stderr(`ceilingbench: warning: ${terminalSafe(note)}\n`);
      // a report whose run did not finish is no verdict's evidence: the comparison fails, saying why
      const passed = comparison.passed && unfinished.length === 0;
      const json = { ...comparison, passed, ...(unfinished.length > 0 ? { unfinishedRuns: unfinished } : {}) };
      io.stdout(flags.json ? `${JSON.stringify(json, null, 2)}\n` : table(comparison, unfinished));
      // a gate never passes on data it did not check: a record not compared fails it as a regression does
      return passed ? 0 : 1;
    });
};
