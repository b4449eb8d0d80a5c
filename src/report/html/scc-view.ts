import { z } from 'zod';
import type { Report } from '../../schema/report.js';
import { sccResultSchema, sccTierSchema, sccTrialSchema } from '../../schema/scc.js';

/**
 * The part of the SCC result (src/schema/scc.ts: sccResultSchema) that the report draws, picked from it. A
 * report reads the record's `result` open (src/schema/assay-results.ts), so a report from an older or newer
 * assay still renders the rest of the page; the fields older records may lack are optional here.
 */
const trialView = sccTrialSchema.pick({ target: true, parsed: true, exact: true }).partial({ exact: true });

const tierView = sccTierSchema
  .pick({ evaluationIndex: true, phase: true, center: true, sampleLow: true, sampleHigh: true, passed: true })
  .partial({ sampleLow: true, sampleHigh: true })
  .extend({ trials: z.array(trialView) });

export const sccResultView = sccResultSchema
  .pick({ cc: true, ccLower: true, ccUpper: true, skipped: true, attractors: true })
  .partial({ ccLower: true, ccUpper: true, skipped: true, attractors: true })
  .extend({ preflight: trialView.optional(), tiers: z.array(tierView) });
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
