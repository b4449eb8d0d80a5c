import type { StatedLimits } from '../limiter.js';

type HeaderBag = { get(name: string): string | null } | undefined;

/** A whole, positive number of a header, or undefined. */
const count = (raw: string | null | undefined): number | undefined => {
  const value = Number(raw?.trim());
  return raw != null && raw.trim() !== '' && Number.isFinite(value) && value > 0 ? value : undefined;
};

/**
 * The per-minute limits an OpenAI-style endpoint states on its responses (`x-ratelimit-limit-requests`,
 * `x-ratelimit-limit-tokens`; OpenAI, Azure OpenAI, Groq, Together, OpenRouter send them), or undefined when it
 * states none. The limiter paces to them (limiter.ts `learn`).
 */
export function statedLimits(headers: HeaderBag): StatedLimits | undefined {
  const requestsPerMinute = count(headers?.get('x-ratelimit-limit-requests'));
  const tokensPerMinute = count(headers?.get('x-ratelimit-limit-tokens'));
  if (requestsPerMinute === undefined && tokensPerMinute === undefined) return undefined;
  return {
    ...(requestsPerMinute !== undefined ? { requestsPerMinute } : {}),
    ...(tokensPerMinute !== undefined ? { tokensPerMinute } : {}),
  };
}
