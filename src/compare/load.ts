import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { type Baseline, baselineSchema } from '../schema/baseline.js';
import { readReport } from '../schema/read-report.js';
import { baselineFromReport } from './baseline.js';
import type { StoredVerdict } from './verdict.js';

/**
 * Reads a baseline or a full ceilingbench.json (converted on the fly); errors name the file and field. An assay
 * record of the report whose result does not match its assay's schema is set aside, named through `warn`.
 */
export function loadRunRecord(path: string, warn: (line: string) => void): Baseline {
  return loadRun(path, warn).record;
}

/**
 * loadRunRecord, with what a ceilingbench.json says of its own gates (its gate results and its manifest's needs):
 * compare's verdict reads them (src/compare/verdict.ts). A saved baseline has none.
 */
export function loadRun(path: string, warn: (line: string) => void): { record: Baseline; verdict?: StoredVerdict } {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(
      `${path}: cannot be read as JSON (${(error as Error).message}) — pass a ceilingbench.json or a baselines/*.json file`,
    );
  }
  const asBaseline = baselineSchema.safeParse(raw);
  if (asBaseline.success) return { record: asBaseline.data };
  const asReport = readReport(raw);
  for (const line of asReport.setAside) warn(`${path}: ${line}`);
  if (asReport.success) {
    const report = asReport.data;
    return {
      record: baselineFromReport(report, basename(path).replace(/\.json$/, '')),
      verdict: { gates: report.gates, ...(report.manifest ? { requirements: report.manifest.requirements } : {}) },
    };
  }
  const issue = asReport.error.issues[0];
  throw new Error(
    `${path}: neither a baseline nor a ceilingbench.json report (${issue.path.join('.') || '(root)'}: ${issue.message}) — regenerate it with 'ceilingbench run' or 'ceilingbench baseline save'`,
  );
}

/**
 * Every file in `dir` that validates as a baseline, oldest run first; anything else is reported through
 * `warn` (naming the file and why) and skipped. A missing directory holds no baselines.
 */
export function loadBaselineDir(dir: string, warn: (line: string) => void): Baseline[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  } catch {
    return [];
  }
  const baselines: Baseline[] = [];
  for (const file of files.sort()) {
    const path = join(dir, file);
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(path, 'utf8'));
    } catch (error) {
      warn(`skipping ${path}: not valid JSON (${(error as Error).message})`);
      continue;
    }
    const parsed = baselineSchema.safeParse(raw);
    if (parsed.success) baselines.push(parsed.data);
    else {
      const issue = parsed.error.issues[0];
      warn(`skipping ${path}: not a baseline (${issue.path.join('.') || '(root)'}: ${issue.message})`);
    }
  }
  return baselines.sort((a, b) => a.runStartedAt.localeCompare(b.runStartedAt) || a.name.localeCompare(b.name));
}
