import { ConfigError } from '../../errors.js';

/** An HTTP header name: a token of RFC 9110 (what fetch accepts). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A header value fetch accepts: no NUL, CR or LF. */
const BAD_VALUE = /[\0\r\n]/;

/** Why a header is not sendable, or undefined; never quotes the value (it may be a key). */
export function headerProblem(name: string, value: string): string | undefined {
  if (!TOKEN.test(name)) {
    return `'${name.slice(0, 60)}' is not a valid header name (letters, digits and !#$%&'*+-.^_\`|~ only, no spaces or colons)`;
  }
  if (BAD_VALUE.test(value)) return `the value of header '${name}' contains a line break or NUL`;
  return undefined;
}

/**
 * The extra request headers, checked once when the subject is made: a header fetch would refuse is a
 * configuration error (CB_CONFIG, exit 2), not a TypeError thrown by every request and retried per trial.
 */
export function requestHeaders(
  headers: Record<string, string> | undefined,
  source = 'headers',
): Record<string, string> | undefined {
  if (headers === undefined) return undefined;
  for (const [name, value] of Object.entries(headers)) {
    const problem = headerProblem(name, value);
    if (problem) throw new ConfigError(`${source}: ${problem}; fix or remove it`);
  }
  return headers;
}
