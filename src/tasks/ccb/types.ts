import type { TaskInstance } from '../task.js';

export const CCB_PROFILES = ['official', 'paper'] as const;
export type CcbProfile = (typeof CCB_PROFILES)[number];

export const CCB_VARIANTS = ['standard', 'verbose', 'A', 'B', 'C'] as const;
export type CcbVariant = (typeof CCB_VARIANTS)[number];

/** Depths N of the release: 5, 10, …, 50. */
export const CCB_DEPTHS: readonly number[] = [5, 10, 15, 20, 25, 30, 35, 40, 45, 50];

export const isCcbProfile = (value: unknown): value is CcbProfile =>
  typeof value === 'string' && (CCB_PROFILES as readonly string[]).includes(value);

export const isCcbVariant = (value: unknown): value is CcbVariant =>
  typeof value === 'string' && (CCB_VARIANTS as readonly string[]).includes(value);

/**
 * A CCB instance. `trace[i]` is the canonical state string after step i+1, exactly as the release writes
 * it (D1 `[[9, 8, 7], …]`, D2 `[A=1, …]`, D3 `[AB:F, …]`); `answer` is the canonical final answer
 * (the final state, or a D3 query token such as `AH:F` in query mode).
 */
export interface CcbInstance<D = unknown> extends TaskInstance<D, string, string> {
  profile: CcbProfile;
}

export function resolveProfile(task: string, profile: unknown): CcbProfile {
  if (profile === undefined) return 'official';
  if (isCcbProfile(profile)) return profile;
  throw new Error(`${task}: unknown profile '${String(profile)}'; use one of: ${CCB_PROFILES.join(', ')}`);
}

export function resolveVariant(task: string, variant: unknown): CcbVariant {
  if (variant === undefined) return 'standard';
  if (isCcbVariant(variant)) return variant;
  throw new Error(`${task}: unknown prompt variant '${String(variant)}'; use one of: ${CCB_VARIANTS.join(', ')}`);
}

export function assertDepth(task: string, depth: number): void {
  if (!Number.isSafeInteger(depth) || depth < 1) {
    throw new Error(`${task}: depth must be a positive integer, got ${depth}`);
  }
}

/** The release's `max_tokens` for D1 and D2: 4096, 6000 when N ≥ 40 (D3 declares its own, in d3/). */
export const releaseMaxTokens = (depth: number): number => (depth >= 40 ? 6000 : 4096);
