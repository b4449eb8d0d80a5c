import { createHash } from 'node:crypto';
import type { Prompt } from '../../tasks/task.js';
import type { TrialRequest } from '../subject.js';
import { CACHE_FORMAT } from './entry.js';

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** JSON with object keys sorted at every depth, so equal content always hashes equally. */
export function canonicalJson(value: Json): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(',')}}`;
}

export const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

export const promptSha256 = (prompt: Prompt): string =>
  sha256(canonicalJson({ system: prompt.system, user: prompt.user }));

export interface KeyMaterial {
  endpoint: string;
  model: string;
  /** The request body without `messages`, exactly as sent on the first call. */
  params: Record<string, string | number | boolean | null>;
  messages: { role: string; content: string }[];
  /** The replicate index: repeated trials are distinct entries, never one cached answer. */
  trialIndex: number;
  taskId: string;
  level: number;
  seed: number;
  instanceProfile: string;
}

/** The content address of one trial: sha256 of everything that determines the request, plus the trial. */
export function cacheKey(material: KeyMaterial): string {
  return sha256(canonicalJson({ format: CACHE_FORMAT, ...material }));
}

/** Which trial a request is — the fields a cache entry records and a replay looks its answer up by. */
export const trialIdentity = (request: TrialRequest) => ({
  taskId: request.taskId,
  level: request.instance.level,
  seed: request.instance.seed,
  instanceProfile: request.instance.profile,
  trialIndex: request.trialIndex,
  promptSha256: promptSha256(request.prompt),
});
