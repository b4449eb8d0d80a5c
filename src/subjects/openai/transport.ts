import type { ClientOptions } from 'openai';
import { Agent, fetch as undiciFetch } from 'undici';

/**
 * The HTTP transport of the openai subject: undici's fetch over an Agent whose connect, headers and body timeouts
 * are set from the request timeout (CEILINGBENCH_REQUEST_TIMEOUT_MS). Node's global fetch cuts a response whose
 * headers or next body chunk take longer than 300 s (undici's defaults) whatever the SDK's or our timeout says, so
 * a long reasoning generation without streaming could never finish; here the one setting governs all of it.
 * Our own timeout (request.ts) still bounds the whole response and fires first: the transport's timeouts sit
 * `slackMs` behind it, as a backstop.
 *
 * The npm `undici` package (not Node's bundled copy, which cannot be imported by name) is used for both the
 * fetch and the Agent, so the two always come from the same version whatever Node runs.
 */
export function createTransport(timeoutMs: number, slackMs = 1_000): NonNullable<ClientOptions['fetch']> {
  const limit = Math.max(1, Math.floor(timeoutMs)) + slackMs;
  const dispatcher = new Agent({ connectTimeout: limit, headersTimeout: limit, bodyTimeout: limit });
  const transport = (url: string | URL | Request, init?: RequestInit) =>
    undiciFetch(url as Parameters<typeof undiciFetch>[0], {
      ...(init as Parameters<typeof undiciFetch>[1]),
      dispatcher,
    }) as unknown as Promise<Response>;
  return transport as NonNullable<ClientOptions['fetch']>;
}
