import { z } from 'zod';
import { formatZodError } from './errors.js';

/**
 * The CCB depth design, read synchronously when spec files are collected (it decides which tests exist):
 * CEILINGBENCH_DESIGN = 'grid' (default; the papers' depths × n, for replication) or 'adaptive' (trials go
 * to the depths with the most Fisher information about p_d per priced token until the CI is as narrow as the
 * grid's — BENCHMARKS.md); CEILINGBENCH_TARGET_WIDTH stops the adaptive design at a fixed 95% CI width instead;
 * CEILINGBENCH_ADAPTIVE_OBJECTIVE = 'cost' (default) or 'calls' (the most information per call, whatever a
 * call costs); CEILINGBENCH_ADAPTIVE_DEPTHS = 'lo-hi' widens (or narrows) the depths it may use, by default
 * the grid's range (CCB: 5-50).
 */
export const designSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('grid') }),
  z.object({
    kind: z.literal('adaptive'),
    targetWidth: z.number().gt(0).lt(1).optional(),
    /** Absent: 'cost'. */
    objective: z.enum(['calls', 'cost']).optional(),
    depths: z
      .object({ min: z.number().int().min(1), max: z.number().int().min(1) })
      .refine((d) => d.min <= d.max, { message: 'the lowest depth must not exceed the highest' })
      .optional(),
  }),
  z.object({
    kind: z.literal('sequential'),
    /** Trials per depth a look (default 2). */
    batch: z.number().int().min(1).optional(),
    /** The most trials per depth (default 4 × the run's trials per cell). */
    maxPerCell: z.number().int().min(1).optional(),
  }),
]);

/** The sequential design's defaults: 2 trials per depth a look, at most 4× the grid's trials per depth. */
export const SEQUENTIAL_DEFAULTS = { batch: 2, maxFactor: 4 } as const;
export type SweepDesign = z.infer<typeof designSchema>;

/** 'lo-hi' (e.g. '1-100') as two numbers; anything else is passed on as NaN for the schema to reject. */
function depthRange(text: string | undefined): { min: number; max: number } | undefined {
  if (!text) return undefined;
  const match = /^\s*(\d+)\s*-\s*(\d+)\s*$/.exec(text);
  return match ? { min: Number(match[1]), max: Number(match[2]) } : { min: Number.NaN, max: Number.NaN };
}

export function sweepDesignFromEnv(env: Record<string, string | undefined> = process.env): SweepDesign {
  const kind = env.CEILINGBENCH_DESIGN || 'grid';
  const width = env.CEILINGBENCH_TARGET_WIDTH;
  const parsed = designSchema.safeParse(
    kind === 'adaptive'
      ? {
          kind,
          targetWidth: width ? Number(width) : undefined,
          objective: env.CEILINGBENCH_ADAPTIVE_OBJECTIVE || undefined,
          depths: depthRange(env.CEILINGBENCH_ADAPTIVE_DEPTHS),
        }
      : kind === 'sequential'
        ? {
            kind,
            batch: env.CEILINGBENCH_SEQUENTIAL_BATCH ? Number(env.CEILINGBENCH_SEQUENTIAL_BATCH) : undefined,
            maxPerCell: env.CEILINGBENCH_SEQUENTIAL_MAX ? Number(env.CEILINGBENCH_SEQUENTIAL_MAX) : undefined,
          }
        : { kind },
  );
  if (!parsed.success) {
    throw formatZodError(
      'CEILINGBENCH_DESIGN / CEILINGBENCH_TARGET_WIDTH / CEILINGBENCH_ADAPTIVE_OBJECTIVE / CEILINGBENCH_ADAPTIVE_DEPTHS / CEILINGBENCH_SEQUENTIAL_BATCH / CEILINGBENCH_SEQUENTIAL_MAX',
      parsed.error,
    );
  }
  return parsed.data;
}

/** The design in a line, as a report's provenance names it: `grid`, `adaptive (objective cost, …)`. */
export function designText(design: SweepDesign): string {
  if (design.kind === 'grid') return 'grid';
  if (design.kind === 'sequential')
    return `sequential (batch ${design.batch ?? SEQUENTIAL_DEFAULTS.batch}, at most ${design.maxPerCell === undefined ? `${SEQUENTIAL_DEFAULTS.maxFactor}× the trials` : design.maxPerCell} per depth)`;
  const parts = [`objective ${design.objective ?? 'cost'}`];
  if (design.targetWidth !== undefined) parts.push(`target width ${design.targetWidth}`);
  if (design.depths) parts.push(`depths ${design.depths.min}-${design.depths.max}`);
  return `adaptive (${parts.join(', ')})`;
}
