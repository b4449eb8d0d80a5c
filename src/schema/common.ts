import { z } from 'zod';

/** Fragments shared by the records: each means one thing wherever it appears. */

/** A 95% interval [lower, upper]. */
export const interval = z.tuple([z.number(), z.number()]);

/** A number of trials, tokens or calls. */
export const count = z.number().int().nonnegative();

/** An estimate is 'insufficient' when too much of its data is missing to say anything; it never passes a gate. */
export const estimateStatusSchema = z.enum(['ok', 'insufficient']);

/** Which cell a row is about, where a row names one (a baseline's counts, the spend accounts): its first keys. */
export const cellKey = { project: z.string(), task: z.string(), variant: z.string(), level: z.number() };

/** What a report record is (`kind`), and the Vitest project and task that produced it: its first three keys. */
export const recordKey = <const K extends string>(kind: K) => ({
  kind: z.literal(kind),
  project: z.string(),
  task: z.string(),
});
