import { appendFileSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { type Report, reportSchema } from '../../src/schema/report.js';
import { redact, secretsFromEnv } from '../../src/subjects/redact.js';
import type { TestEntry } from './build.js';
import { renderJunit } from './junit.js';
import { renderMarkdown } from './markdown.js';

function writeAtomic(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

export { clearReportSet, REPORT_SET_FILES } from './report-set.js';

/** Writes ceilingbench.json (+ its JSON Schema), junit.xml and summary.md into `outDir`. */
export function writeReportSet(report: Report, entries: readonly TestEntry[], outDir: string): string[] {
  const validated = reportSchema.parse(report);
  mkdirSync(outDir, { recursive: true });
  const files = {
    'ceilingbench.json': `${JSON.stringify(validated, null, 2)}\n`,
    'ceilingbench.schema.json': `${JSON.stringify(z.toJSONSchema(reportSchema, { unrepresentable: 'any' }), null, 2)}\n`,
    'junit.xml': renderJunit(validated, entries),
    'summary.md': renderMarkdown(validated),
  };
  for (const [name, text] of Object.entries(files)) writeAtomic(join(outDir, name), text);
  const stepSummary = process.env.GITHUB_STEP_SUMMARY;
  // the job's summary is a stream ceilingbench writes too: without the run's secrets (src/subjects/redact.ts)
  if (stepSummary)
    appendFileSync(stepSummary, redact(files['summary.md'], secretsFromEnv(process.env), { partial: false }));
  return Object.keys(files).map((name) => join(outDir, name));
}
