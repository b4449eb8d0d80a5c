import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { UsageError } from '../errors.js';

/** Reads and validates a JSON file; every failure is a UsageError naming the file, the field and the fix. */
export function readJsonFile<S extends z.ZodType>(path: string, schema: S, fix: string): z.infer<S> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}) — ${fix}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${path}: not valid JSON (${(error as Error).message}) — ${fix}`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(`${path}: ${issue.path.join('.') || '(root)'}: ${issue.message} — ${fix}`);
  }
  return parsed.data;
}
