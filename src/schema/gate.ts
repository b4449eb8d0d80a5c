import { z } from 'zod';
import { interval } from './cell.js';

/** One evaluated threshold. Hard gates decide the exit code; advisory ones are recorded only. */
export const gateResultSchema = z.object({
  project: z.string(),
  task: z.string(),
  gate: z.string(),
  mode: z.enum(['hard', 'advisory']),
  threshold: z.number(),
  estimate: z.number().nullable(),
  ci95: interval.nullable(),
  passed: z.boolean(),
  message: z.string(),
});
export type GateResult = z.infer<typeof gateResultSchema>;
