import { z } from 'zod';
import { interval } from './common.js';

/** A hard gate decides the exit code; an advisory one is recorded only. */
export const GATE_MODES = ['hard', 'advisory'] as const;
export type GateMode = (typeof GATE_MODES)[number];

/**
 * What a retention gate decides on: the point estimate or the CI lower bound (no stated error rates), or 'test':
 * the likelihood-ratio test of docs/gates.md#error-controlled-gates, with a false-alarm rate alpha and the power
 * at a margin it states.
 */
export const GATE_EVIDENCE = ['point', 'lower', 'test'] as const;
export type GateEvidence = (typeof GATE_EVIDENCE)[number];

/** The default false-alarm rate of an error-controlled gate, and the default shortfall in p_d it must catch. */
export const DEFAULT_GATE_ALPHA = 0.05;
export const DEFAULT_GATE_MARGIN = 0.02;

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
  evidence: z.enum(GATE_EVIDENCE).optional(),
  /** evidence 'test': the false-alarm rate, the margin, and the power the run's trials achieved at that margin. */
  alpha: z.number().optional(),
  margin: z.number().optional(),
  power: z.number().optional(),
});
export type GateResult = z.infer<typeof gateResultSchema>;
