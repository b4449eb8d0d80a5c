import type { Usage } from '../schema/trial.js';

/**
 * Sum of two usages; unknown (null) if either is. Reasoning and cached prompt tokens count as 0 in a call that
 * reported none; the provider's cost is summed only when both calls reported one (else it is unknown, and the
 * tokens are priced instead).
 */
export function addUsage(a: Usage | null, b: Usage | null): Usage | null {
  if (a === null || b === null) return null;
  const sum = (x: number | undefined, y: number | undefined) =>
    x === undefined && y === undefined ? undefined : (x ?? 0) + (y ?? 0);
  const reasoningTokens = sum(a.reasoningTokens, b.reasoningTokens);
  const cachedPromptTokens = sum(a.cachedPromptTokens, b.cachedPromptTokens);
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    ...(reasoningTokens !== undefined ? { reasoningTokens } : {}),
    ...(cachedPromptTokens !== undefined ? { cachedPromptTokens } : {}),
    ...(a.costUsd !== undefined && b.costUsd !== undefined ? { costUsd: a.costUsd + b.costUsd } : {}),
  };
}
