import { z } from 'zod';
import type { Report } from '../../schema/report.js';

/**
 * The part of the SCC assay result (src/assays/scc/schema.ts: sccResultSchema) that the report draws.
 * Kept loose and local on purpose: the record's `result` is `unknown` in ceilingbench.json, and a report
 * from an older or newer assay must still render the rest of the page.
 */
const trialView = z.object({
  target: z.number(),
  parsed: z.number().nullable(),
  exact: z.boolean().optional(),
});

const tierView = z.object({
  evaluationIndex: z.number().int().nonnegative(),
  phase: z.string(),
  center: z.number().positive(),
  sampleLow: z.number().optional(),
  sampleHigh: z.number().optional(),
  passed: z.boolean(),
  trials: z.array(trialView),
});

const attractorView = z.object({ value: z.number(), count: z.number(), share: z.number() });

export const sccResultView = z.object({
  cc: z.number(),
  ccLower: z.number().optional(),
  ccUpper: z.number().nullable().optional(),
  skipped: z.boolean().optional(),
  preflight: trialView.optional(),
  tiers: z.array(tierView),
  attractors: z.array(attractorView).optional(),
});
export type SccResultView = z.infer<typeof sccResultView>;
export type SccRecord = Report['scc'][number];

export interface SccRun {
  record: SccRecord;
  view: SccResultView;
}

/** The SCC records whose result has the shape above; the others are named in `unreadable`. */
export function readSccRuns(report: Report): { runs: SccRun[]; unreadable: string[] } {
  const runs: SccRun[] = [];
  const unreadable: string[] = [];
  for (const record of report.scc) {
    const parsed = sccResultView.safeParse(record.result);
    if (parsed.success) runs.push({ record, view: parsed.data });
    else
      unreadable.push(
        `${record.task}: ${parsed.error.issues[0]?.path.join('.') || 'result'} ${parsed.error.issues[0]?.message ?? ''}`.trim(),
      );
  }
  return { runs, unreadable };
}
