import { z } from 'zod';

/**
 * The subject kinds of the subject grammar (src/subjects/spec.ts): `sim:…`, `oracle`, `openai:…`, `replay:…`, and
 * `function` (a `defineSubject` subject, named by `module:…` or passed to a sweep).
 */
export const SUBJECT_KINDS = ['sim', 'oracle', 'openai', 'replay', 'function'] as const;

/** What a report may say about who answered: never keys or headers. */
export const subjectIdentitySchema = z.object({
  spec: z.string(),
  kind: z.enum(SUBJECT_KINDS),
  model: z.string().optional(),
  endpoint: z.string().optional(),
  parameters: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
});
export type SubjectIdentity = z.infer<typeof subjectIdentitySchema>;
