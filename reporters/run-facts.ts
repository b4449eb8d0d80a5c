import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Vitest } from 'vitest/node';
import { designText } from '../src/config/design.js';
import type { RunConfig } from '../src/config/resolve.js';
import { configuredGatesOf } from '../src/gates/index.js';
import type { ProvenanceSettings } from '../src/schema/provenance.js';
import { PACKAGE_ROOT_URL } from '../src/vitest/files.js';
import type { ModuleStamp } from '../src/vitest/meta.js';
import { PROJECT_PATTERNS_KEY } from '../src/vitest/subject-keys.js';
import { terminalSafe } from './projections/safe-text.js';

/**
 * What the reporter reads about the run itself, beside its results: the tools' versions and the commit, how the run
 * was narrowed (filters, shards, changes), its settings and retries, and whether its configuration has hard gates.
 */

/** ceilingbench's own version (not the user's package): the package's package.json. */
export function toolVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('package.json', PACKAGE_ROOT_URL), 'utf8')) as {
      name?: string;
      version?: string;
    };
    return pkg.name === 'ceilingbench' && pkg.version ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/** Whether this run writes Vitest's blob report (to be merged later), under Vitest 4.1 and 5 alike. */
export const writesBlob = (vitest: Vitest): boolean =>
  (vitest.config.reporters ?? []).some((r) => (Array.isArray(r) ? r[0] : r) === 'blob');

/** The more severe of two exit codes (several report sets: the worst one's). */
export const worse = (a: typeof process.exitCode, b: typeof process.exitCode): number =>
  Math.max(Number(a ?? 0), Number(b ?? 0));

export function gitSha(root: string): string | null {
  const fromEnv = process.env.CEILINGBENCH_GIT_SHA ?? process.env.GITHUB_SHA;
  if (fromEnv) return fromEnv;
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return null;
  }
}

/** How this run was narrowed, as a user would have typed it; null when it ran everything it declares. */
export function filtersOf(vitest: Vitest): string | null {
  const parts: string[] = [];
  // as typed: `ceilingbench run --project d2@gpt-4o` gives Vitest `d2` (src/vitest/subject-filter.ts)
  const typed = vitest.config.provide?.[PROJECT_PATTERNS_KEY] as string[] | undefined;
  for (const p of typed ?? vitest.config.project ?? []) parts.push(`--project ${p}`);
  if (vitest.config.testNamePattern) parts.push(`-t ${vitest.config.testNamePattern.source}`);
  const files = (vitest as unknown as { filenamePattern?: string[] }).filenamePattern;
  if (files && files.length > 0) parts.push(`files ${files.join(' ')}`);
  if (vitest.config.shard) parts.push(`--shard ${vitest.config.shard.index}/${vitest.config.shard.count}`);
  if (vitest.config.changed)
    parts.push(`--changed${typeof vitest.config.changed === 'string' ? ` ${vitest.config.changed}` : ''}`);
  // --changed fills `related` with the changed files itself: the flag as typed is the filter
  else if ((vitest.config.related?.length ?? 0) > 0) parts.push(`related ${(vitest.config.related ?? []).join(' ')}`);
  return parts.length > 0 ? terminalSafe(parts.join(', ')) : null;
}

/** The run's settings a report's provenance names (src/schema/provenance.ts). */
export function settingsOf(config: RunConfig, vitest: Vitest): ProvenanceSettings {
  return {
    trials: config.trials,
    design: designText(config.design),
    missingRule: config.missing,
    readingProfile: config.reading,
    maxMissingFraction: config.maxMissingFraction,
    reasoningDelimiters: config.reasoningDelimiters.length,
    vitestVersion: (vitest as { version?: string }).version ?? null,
  };
}

/** The retry the measuring tests refused, as the report's scope records it (none asked: nothing). */
export const refusedRetry = (vitest: Vitest): { retryRefused?: number } =>
  retriesOf(vitest) > 0 ? { retryRefused: retriesOf(vitest) } : {};

/** The run's retry count (`--retry`, `retry` in the configuration: a number or `{ count }`). */
export function retriesOf(vitest: Vitest): number {
  const retry = (vitest.config as { retry?: number | { count?: number } }).retry;
  return typeof retry === 'number' ? retry : (retry?.count ?? 0);
}

/** Whether the run selected its files by what changed (`--changed`, `vitest related`). */
export const narrowedByChanges = (vitest: Vitest): boolean =>
  Boolean(vitest.config.changed) || (vitest.config.related?.length ?? 0) > 0;

/** Whether the configuration has a hard gate (one that decides the exit code). */
export const hasHardGates = (config: RunConfig): boolean =>
  Object.values(config.gates).some((g) => configuredGatesOf(g).some((x) => x.mode === 'hard'));

/** The shards a merge of blobs holds and lacks (each shard's modules carry its stamp); none outside a merge. */
export function shardsOf(
  stamps: readonly ModuleStamp[],
): { count: number; merged: number[]; missing: number[] } | undefined {
  const counts = [...new Set(stamps.flatMap((s) => (s.shard ? [s.shard.count] : [])))];
  if (counts.length === 0) return undefined;
  const count = Math.max(...counts);
  const merged = [...new Set(stamps.flatMap((s) => (s.shard ? [s.shard.index] : [])))].sort((a, b) => a - b);
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !merged.includes(i));
  return { count, merged, missing };
}
