import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { type Baseline, baselineSchema } from '../schema/baseline';
import { reportSchema } from '../schema/report';
import { baselineFromReport } from './baseline';

/** Reads a baseline or a full ceilingbench.json (converted on the fly); errors name the file and field. */
export function loadRunRecord(path: string): Baseline {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(
      `${path}: cannot be read as JSON (${(error as Error).message}) — pass a ceilingbench.json or a baselines/*.json file`,
    );
  }
  const asBaseline = baselineSchema.safeParse(raw);
  if (asBaseline.success) return asBaseline.data;
  const asReport = reportSchema.safeParse(raw);
  if (asReport.success) return baselineFromReport(asReport.data, basename(path).replace(/\.json$/, ''));
  const issue = asReport.error.issues[0];
  throw new Error(
    `${path}: neither a baseline nor a ceilingbench.json report (${issue.path.join('.') || '(root)'}: ${issue.message}) — regenerate it with 'ceilingbench run' or 'ceilingbench baseline save'`,
  );
}
