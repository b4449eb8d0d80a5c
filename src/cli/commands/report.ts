import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { z } from 'zod';
import { unfinishedRunNote } from '../../../reporters/projections/report-set.js';
import { terminalSafe } from '../../../reporters/projections/safe-text.js';
import { loadBaselineDir } from '../../compare/load.js';
import { hardFailures } from '../../gates/index.js';
import type { Baseline } from '../../schema/baseline.js';
import type { Board } from '../../schema/leaderboard.js';
import { readReport } from '../../schema/read-report.js';
import type { Report } from '../../schema/report.js';
import { PACKAGE_ROOT_URL } from '../../vitest/files.js';
import type { CliIo, RegisterCommand } from '../command.js';
import { UsageError } from '../errors.js';
import { COMMAND_HELP, DEFAULT_REPORT } from './table.js';

interface ReportFlags {
  out?: string;
  baselines?: string;
  resamples?: string | number;
  alpha?: string | number;
}

const pkg = JSON.parse(readFileSync(new URL('package.json', PACKAGE_ROOT_URL), 'utf8')) as { version: string };

/** "cells.3.ci95: expected array, received null" — the first issue, with its path. */
function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  const path = issue?.path.map(String).join('.') || '(root)';
  return `field '${path}': ${issue?.message ?? 'invalid'}`;
}

function readJson(path: string): unknown {
  if (!existsSync(path)) throw new UsageError(`${path}: no such file — pass the ceilingbench.json a run wrote`);
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new UsageError(
      `${path}: not valid JSON (${(error as Error).message}); the file is truncated or corrupt — rerun 'ceilingbench run' to rewrite it`,
    );
  }
}

/**
 * Reads and validates ceilingbench.json; every failure names the file and the first bad field. An assay record
 * whose result does not match its assay's schema is set aside with a warning (src/schema/read-report.ts).
 */
export function readReportFile(path: string, io: Pick<CliIo, 'stderr'>): Report {
  const parsed = readReport(readJson(path));
  for (const line of parsed.setAside) io.stderr(`ceilingbench: warning: ${path}: ${line}\n`);
  // a report whose run did not finish (killed, or still running) is flagged: it is an earlier run's
  const unfinished = unfinishedRunNote(resolve(path));
  if (unfinished) io.stderr(`ceilingbench: warning: ${terminalSafe(unfinished)}\n`);
  if (!parsed.success) {
    throw new UsageError(
      `${path}: not a valid ceilingbench.json (${firstIssue(parsed.error)}) — pass the file 'ceilingbench run' wrote, unedited`,
    );
  }
  return parsed.data;
}

/** Every baselines/*.json that validates, in file-name order; the others are skipped with a warning line. */
export function readBaselineDir(dir: string, io: CliIo): Baseline[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new UsageError(
      `--baselines: '${dir}' is not a directory — pass the folder 'ceilingbench baseline save' writes`,
    );
  }
  return loadBaselineDir(dir, (line) => io.stderr(`ceilingbench: warning: ${line}\n`));
}

/** Every file named ceilingbench.json under `dir`, depth first, in name order. */
export function findReportFiles(dir: string): string[] {
  const found: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && !entry.name.startsWith('.')) walk(path);
      } else if (entry.name === 'ceilingbench.json') found.push(path);
    }
  };
  walk(dir);
  return found;
}

/** The report files the arguments name: files as given, folders searched for ceilingbench.json. */
function reportPaths(args: readonly string[]): string[] {
  const paths = args.flatMap((arg) => {
    const path = resolve(arg);
    if (!existsSync(path) || !statSync(path).isDirectory()) return [path];
    const found = findReportFiles(path);
    if (found.length === 0) throw new UsageError(`${arg}: no ceilingbench.json under this folder`);
    return found;
  });
  return [...new Set(paths)];
}

function numberFlag(name: string, value: string | number | undefined, ok: (x: number) => boolean): number | undefined {
  if (value === undefined) return undefined;
  const x = Number(value);
  if (!ok(x)) throw new UsageError(`--${name}: '${value}' is not valid`);
  return x;
}

const fixed4 = (x: number) => x.toFixed(4);

/** A board's standings, one line per subject: rank, label, headline with its interval or bounds. */
function boardLines(board: Board): string[] {
  const rank = (e: { rankLabel: string | null }) => (e.rankLabel ?? '—').padEnd(5);
  switch (board.kind) {
    case 'retention':
      return board.entries.map(
        (e) => `${rank(e)}${e.subject}  p_d ${fixed4(e.pd)} [${fixed4(e.ci95[0])}, ${fixed4(e.ci95[1])}]`,
      );
    case 'collapse':
      return board.entries.map(
        (e) =>
          `${rank(e)}${e.subject}  λ* ${e.levelIndex ?? '—'}, accuracy ${e.accuracy === null ? '—' : e.accuracy.toFixed(3)}`,
      );
    case 'scc':
      return board.entries.map((e) => `${rank(e)}${e.subject}  CC ${e.cc} [${e.ccLower}, ${e.ccUpper ?? '∞'}]`);
  }
}

/** `ceilingbench report a.json b.json …` (or a folder): one merged report and leaderboard from separate runs. */
async function mergeAction(args: readonly string[], flags: ReportFlags, io: CliIo): Promise<number> {
  if (flags.out === undefined) {
    throw new UsageError(
      'merging several reports needs --out <dir> for the merged ceilingbench.json, summary.md, junit.xml and index.html',
    );
  }
  const paths = reportPaths(args);
  const inputs = paths.map((path) => ({ name: relativeName(path), report: readReportFile(path, io) }));
  const resamples = numberFlag('resamples', flags.resamples, (x) => Number.isInteger(x) && x >= 1);
  const alpha = numberFlag('alpha', flags.alpha, (x) => x > 0 && x < 1);
  const { mergeReports, mergedTestEntries } = await import('../../../reporters/projections/merge/index.js');
  const { writeReportSet } = await import('../../../reporters/projections/write.js');
  let merged: ReturnType<typeof mergeReports>;
  try {
    merged = mergeReports(inputs, { version: pkg.version, resamples, alpha });
  } catch (error) {
    if (error instanceof RangeError) throw new UsageError(error.message);
    throw error;
  }
  const outDir = resolve(String(flags.out));
  const baselines = flags.baselines === undefined ? [] : readBaselineDir(resolve(String(flags.baselines)), io);
  const { clearReportSet, sealReportSet } = await import('../../../reporters/projections/report-set.js');
  // only a previous ceilingbench set is replaced: a folder with the user's own files of these names is refused
  clearReportSet(outDir);
  const files = writeReportSet(merged.report, mergedTestEntries(merged.report), outDir);
  const { renderHtmlReport, writeRenderedHtmlReport } = await import('../../../reporters/projections/html/index.js');
  const rendered = await renderHtmlReport(merged.report, { baselines });
  files.push(...writeRenderedHtmlReport(merged.report, rendered, outDir));
  const now = new Date().toISOString();
  sealReportSet(outDir, { id: `${now}-p${process.pid}`, startedAt: now });
  const lb = merged.leaderboard;
  io.stdout(
    `ceilingbench report: merged ${inputs.length} runs, ${lb.subjects.length} subjects, ${lb.projects.length} projects\n`,
  );
  for (const run of merged.runs) io.stdout(`  ${run.text}\n`);
  for (const line of merged.unpaired) io.stdout(`  ${line}\n`);
  for (const project of lb.projects) {
    for (const board of project.boards) {
      io.stdout(`\n${project.project}/${board.task} (${board.kind}, ${board.paired ? 'paired' : 'not all paired'}):\n`);
      for (const line of boardLines(board)) io.stdout(`  ${line}\n`);
      for (const r of board.relations) io.stdout(`  ${r.text}\n`);
    }
  }
  io.stdout('\n');
  for (const a of rendered.absent) io.stdout(`  not drawn: ${a.title} — ${a.reason}\n`);
  for (const w of rendered.warnings) io.stderr(`ceilingbench: warning: chart ${w}\n`);
  for (const file of files) io.stdout(`  wrote ${file}\n`);
  // the merged set's verdict: each run's gates as its run decided them (src/gates decideVerdict), each naming its
  // subject; a hard gate that failed in any of them fails the merge
  const failed = hardFailures(merged.report.gates);
  for (const gate of failed) io.stderr(`ceilingbench: ${gate.subject ? `[${gate.subject}] ` : ''}${gate.message}\n`);
  return failed.length > 0 ? 1 : 0;
}

/** The path relative to the working directory when under it, else absolute. */
function relativeName(path: string): string {
  const cwd = `${process.cwd()}/`;
  return path.startsWith(cwd) ? path.slice(cwd.length) : path;
}

/** Where `ceilingbench run` writes its report by default, relative to the directory it ran in. */
export { DEFAULT_REPORT };

/** The arguments as given, or the default report of a run in the current directory when there are none. */
function reportArgs(jsons: readonly unknown[] | undefined): string[] {
  const args = (jsons ?? []).map(String);
  if (args.length > 0) return args;
  if (existsSync(resolve(DEFAULT_REPORT))) return [DEFAULT_REPORT];
  throw new UsageError(
    `no ${DEFAULT_REPORT} in ${process.cwd()} — pass the ceilingbench.json a run wrote (ceilingbench report path/to/ceilingbench.json), or a folder of them`,
  );
}

/**
 * `ceilingbench report [ceilingbench.json]`: the self-contained HTML report with its charts. With several files or
 * a folder: the runs merged into one report with their leaderboard (reporters/projections/merge/reports.ts states the rules).
 */
export const registerReport: RegisterCommand = (cli, io) => {
  cli
    .command(COMMAND_HELP.report.usage, COMMAND_HELP.report.description)
    .option('--out <dir>', "Output directory (default: the JSON file's directory; required when merging)")
    .option('--baselines <dir>', 'Folder of saved baselines (*.json) for the per-release history charts')
    .option('--resamples <n>', 'Merging: bootstrap resamples per leaderboard pair (default 2000)')
    .option('--alpha <a>', 'Merging: family-wise significance level of the leaderboard (default 0.05)')
    .action(async (jsons: string[] | undefined, flags: ReportFlags) => {
      const args = reportArgs(jsons);
      const single = args.length === 1 && !(existsSync(args[0]) && statSync(args[0]).isDirectory());
      if (!single) return mergeAction(args, flags, io);
      const path = resolve(args[0]);
      const report = readReportFile(path, io);
      const baselines = flags.baselines === undefined ? [] : readBaselineDir(resolve(String(flags.baselines)), io);
      const outDir = resolve(flags.out === undefined ? dirname(path) : String(flags.out));
      const { renderHtmlReport, writeRenderedHtmlReport } = await import(
        '../../../reporters/projections/html/index.js'
      );
      const rendered = await renderHtmlReport(report, { baselines });
      const files = writeRenderedHtmlReport(report, rendered, outDir);
      io.stdout(
        `ceilingbench report: ${rendered.charts.length} charts (${rendered.charts.map((c) => c.id).join(', ') || 'none'})` +
          `${baselines.length ? `, history over ${baselines.length} baselines` : ''}\n`,
      );
      for (const a of rendered.absent) io.stdout(`  not drawn: ${a.title} — ${a.reason}\n`);
      for (const w of rendered.warnings) io.stderr(`ceilingbench: warning: chart ${w}\n`);
      for (const file of files) io.stdout(`  wrote ${file}\n`);
      return 0;
    });
};
