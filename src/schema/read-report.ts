import type { z } from 'zod';
import { type Report, reportSchema } from './report.js';

/**
 * Reads a ceilingbench.json. Every assay record's result is validated against its assay's schema
 * (./assay-results.ts); a record whose result does not match (written by another ceilingbench version, or edited)
 * is set aside and named — the rest of the report still loads. Anything else that does not match fails the read,
 * with the first bad field.
 */
export type ReportReading =
  | { success: true; data: Report; setAside: string[] }
  | { success: false; error: z.ZodError; setAside: string[] };

const ASSAY_ARRAYS = ['scc', 'sccAssays'] as const;

/** `field 'tiers.0.trials': expected array, received string` — an issue's path, from where the message starts. */
const issueText = (issue: z.core.$ZodIssue, from: number): string =>
  `field '${issue.path.slice(from).map(String).join('.') || '(root)'}': ${issue.message}`;

export function readReport(raw: unknown): ReportReading {
  const parsed = reportSchema.safeParse(raw);
  if (parsed.success) return { success: true, data: parsed.data, setAside: [] };
  // the records whose own result is what failed: [array, index] → their first issue
  const bad = new Map<string, { array: (typeof ASSAY_ARRAYS)[number]; index: number; issue: z.core.$ZodIssue }>();
  for (const issue of parsed.error.issues) {
    const [array, index, field] = issue.path;
    const inResult =
      ASSAY_ARRAYS.includes(array as (typeof ASSAY_ARRAYS)[number]) && typeof index === 'number' && field === 'result';
    if (!inResult) return { success: false, error: parsed.error, setAside: [] };
    const key = `${String(array)}.${index}`;
    if (!bad.has(key)) bad.set(key, { array: array as (typeof ASSAY_ARRAYS)[number], index, issue });
  }
  const report = raw as Record<string, unknown[]>;
  const setAside = [...bad.values()].map(({ array, index, issue }) => {
    const record = report[array][index] as { kind?: unknown; assay?: unknown; project?: unknown; task?: unknown };
    const name = `${String(record.assay ?? record.kind)} record ${String(record.project)}/${String(record.task)}`;
    return `${name} set aside: its result does not match its assay's schema (${issueText(issue, 3)})`;
  });
  const kept = { ...report };
  for (const array of ASSAY_ARRAYS) kept[array] = report[array].filter((_, index) => !bad.has(`${array}.${index}`));
  const again = reportSchema.safeParse(kept);
  return again.success
    ? { success: true, data: again.data, setAside }
    : { success: false, error: again.error, setAside };
}
