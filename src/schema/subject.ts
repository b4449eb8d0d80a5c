import { z } from 'zod';

/** What a report may say about who answered: never keys or headers. */
export const subjectIdentitySchema = z.object({
  spec: z.string(),
  kind: z.enum(['sim', 'oracle', 'openai', 'replay']),
  model: z.string().optional(),
  endpoint: z.string().optional(),
  parameters: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
});
export type SubjectIdentity = z.infer<typeof subjectIdentitySchema>;
