import { z } from 'zod';
import { formatZodError } from './errors.js';

/**
 * The CCB depth design, read synchronously when spec files are collected (it decides which tests exist):
 * CEILINGBENCH_DESIGN = 'grid' (default; the papers' depths × n, for replication) or 'adaptive' (trials go
 * to the depths with the most Fisher information about p_d until the CI is as narrow as the grid's —
 * BENCHMARKS.md); CEILINGBENCH_TARGET_WIDTH stops the adaptive design at a fixed 95% CI width instead.
 */
export const designSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('grid') }),
  z.object({ kind: z.literal('adaptive'), targetWidth: z.number().gt(0).lt(1).optional() }),
]);
export type SweepDesign = z.infer<typeof designSchema>;

export function sweepDesignFromEnv(env: Record<string, string | undefined> = process.env): SweepDesign {
  const kind = env.CEILINGBENCH_DESIGN || 'grid';
  const width = env.CEILINGBENCH_TARGET_WIDTH;
  const parsed = designSchema.safeParse(
    kind === 'adaptive' ? { kind, targetWidth: width ? Number(width) : undefined } : { kind },
  );
  if (!parsed.success) throw formatZodError('CEILINGBENCH_DESIGN / CEILINGBENCH_TARGET_WIDTH', parsed.error);
  return parsed.data;
}
