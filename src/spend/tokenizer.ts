import { createRequire } from 'node:module';

/**
 * Token counts for spend estimates, with OpenAI's own byte-pair encodings (gpt-tokenizer, pure JavaScript). Actual
 * spend is never counted here: a run's tokens are the provider's `usage`.
 */

export const ENCODINGS = ['o200k_base', 'cl100k_base'] as const;
export type EncodingName = (typeof ENCODINGS)[number];

export interface EncodingChoice {
  encoding: EncodingName;
  /**
   * The model is an OpenAI model of known encoding, so the count is its own tokenizer's. False for every other
   * name (open-weight models, Azure deployment names, other providers): their tokenizers differ, and o200k_base
   * is only an approximation of them.
   */
  exact: boolean;
}

/** OpenAI model families by encoding, matched on the name without an `openai/` prefix (OpenRouter's slugs). */
const O200K = /^(gpt-4o|chatgpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|o1|o3|o4)\b/;
const CL100K = /^(gpt-4|gpt-3\.5)\b/;

/** The encoding of a model name: o200k_base for the gpt-4o, 4.1, 5 and o-series families and by default. */
export function encodingFor(model?: string | null): EncodingChoice {
  const name = (model ?? '')
    .trim()
    .toLowerCase()
    .replace(/^openai\//, '');
  if (O200K.test(name)) return { encoding: 'o200k_base', exact: true };
  if (CL100K.test(name)) return { encoding: 'cl100k_base', exact: true };
  return { encoding: 'o200k_base', exact: false };
}

interface Encoder {
  countTokens(text: string, options?: { disallowedSpecial?: Set<string> }): number;
}

const encoders = new Map<EncodingName, Encoder>();
const load = createRequire(import.meta.url);

/**
 * The encoder, loaded on first use: the rank tables take about a second to load, which `ceilingbench --help`
 * or `run` should not pay. The CommonJS build is required so that counting stays synchronous.
 */
function encoder(encoding: EncodingName): Encoder {
  let found = encoders.get(encoding);
  if (!found) {
    found = load(`gpt-tokenizer/cjs/encoding/${encoding}`) as Encoder;
    encoders.set(encoding, found);
  }
  return found;
}

/** Special-token text (`<|endoftext|>`) in a prompt is plain text to the provider, so it is counted as such. */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

/** Tokens of a text in the model's encoding (o200k_base when the model is unknown). */
export function countTokens(text: string, model?: string | null): number {
  if (text === '') return 0;
  return encoder(encodingFor(model).encoding).countTokens(text, AS_TEXT);
}

/**
 * What a chat request's messages cost as prompt tokens, by OpenAI's documented rule for chat models ("How to
 * count tokens with tiktoken"): each message adds 3 tokens of framing to its role and content, and every reply
 * is primed with 3 more (`<|start|>assistant<|message|>`). Providers may frame messages differently, so for a
 * model that is not OpenAI's the count is an approximation (see `encodingFor`).
 */
export const TOKENS_PER_MESSAGE = 3;
export const TOKENS_REPLY_PRIMING = 3;

/** A chat message as the tokenizer reads it (the openai subject's messages are of this shape). */
export interface CountedMessage {
  role: string;
  content: string;
}

export function countChatTokens(messages: readonly CountedMessage[], model?: string | null): number {
  let total = TOKENS_REPLY_PRIMING;
  for (const message of messages) {
    total += TOKENS_PER_MESSAGE + countTokens(message.role, model) + countTokens(message.content, model);
  }
  return total;
}
