import { z } from 'zod';
import { interval } from './common.js';

/** A hard gate decides the exit code; an advisory one is recorded only. */
export const GATE_MODES = ['hard', 'advisory'] as const;
export type GateMode = (typeof GATE_MODES)[number];

/** One evaluated threshold. Hard gates decide the exit code; advisory ones are recorded only. */
export const gateResultSchema = z.object({
  project: z.string(),
  task: z.string(),
  gate: z.string(),
  mode: z.enum(GATE_MODES),
  threshold: z.number(),
  estimate: z.number().nullable(),
  ci95: interval.nullable(),
  passed: z.boolean(),
  message: z.string(),
  /** The subject the gate judged (a gate across subjects: the candidate; otherwise with several subjects). */
  subject: z.string().optional(),
  /** notWorseThan: the baseline subject spec the candidate was compared with. */
  baseline: z.string().optional(),
  /** notWorseThan: the one-sided upper confidence bound of Δp_d (candidate − baseline); fails iff < −margin. */
  upper: z.number().nullable().optional(),
  /** minRetention: what was compared with the threshold (absent: the point estimate, as before it was kept). */
  evidence: z.enum(['point', 'lower']).optional(),
});
export type GateResult = z.infer<typeof gateResultSchema>;
