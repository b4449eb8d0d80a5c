import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { z } from 'zod';
import { loadBaselineDir } from '../../compare/load.js';
import type { Baseline } from '../../schema/baseline.js';
import { type Report, reportSchema } from '../../schema/report.js';
import type { CliIo, RegisterCommand } from '../command.js';
import { UsageError } from '../errors.js';

interface ReportFlags {
  out?: string;
  baselines?: string;
}

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

/** Reads and validates ceilingbench.json; every failure names the file and the first bad field. */
export function readReportFile(path: string): Report {
  const parsed = reportSchema.safeParse(readJson(path));
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

/** `ceilingbench report <ceilingbench.json>`: the self-contained HTML report with its charts. */
export const registerReport: RegisterCommand = (cli, io) => {
  cli
    .command(
      'report <json>',
      'Write index.html (inline SVG charts, no network) and charts.vl.json from a ceilingbench.json',
    )
    .option('--out <dir>', "Output directory (default: the JSON file's directory)")
    .option('--baselines <dir>', 'Folder of saved baselines (*.json) for the per-release history charts')
    .action(async (json: string, flags: ReportFlags) => {
      const path = resolve(String(json));
      const report = readReportFile(path);
      const baselines = flags.baselines === undefined ? [] : readBaselineDir(resolve(String(flags.baselines)), io);
      const outDir = resolve(flags.out === undefined ? dirname(path) : String(flags.out));
      const { renderHtmlReport, writeRenderedHtmlReport } = await import('../../report/html/index.js');
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
