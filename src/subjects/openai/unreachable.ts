import { APIConnectionError } from 'openai';

/**
 * A wrong endpoint, told apart from a busy one: a refused connection, a name that does not resolve, or a TLS
 * failure, before the endpoint has ever answered in this process, is a configuration mistake that no retry fixes.
 * The subject stops at once with the URL (without credentials) and what to check, instead of backing off for the
 * whole outage budget (minutes of silence). Once the endpoint has answered, the same errors are an outage: they
 * are retried with backoff as before (src/subjects/openai/retry.ts, endpoint-gate.ts).
 */

interface Unreachable {
  /** What failed, with the system code: `connection refused (ECONNREFUSED)`. */
  what: string;
  /** What to check. */
  hint: string;
}

const URL_HINT = 'check OPENAI_BASE_URL (scheme, host, port and path, e.g. http://127.0.0.1:8000/v1)';

const BY_CODE: Record<string, Unreachable> = {
  ECONNREFUSED: {
    what: 'connection refused',
    hint: `${URL_HINT} and that the server is running and listening there`,
  },
  ENOTFOUND: { what: 'the host name does not resolve', hint: `${URL_HINT}: the host name, and your DNS or VPN` },
  EAI_AGAIN: { what: 'the host name could not be resolved', hint: `${URL_HINT}: the host name, and your DNS or VPN` },
  ENETUNREACH: { what: 'the network is unreachable', hint: `${URL_HINT}, and your network or proxy` },
  EHOSTUNREACH: { what: 'the host is unreachable', hint: `${URL_HINT}, and your network or proxy` },
};

const TLS_CODES = new Set([
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'EPROTO',
]);

/** The system error codes along an error's cause chain (the SDK wraps fetch's TypeError, which wraps the code). */
function codesOf(error: unknown): string[] {
  const codes: string[] = [];
  let at: unknown = error;
  for (let depth = 0; depth < 5 && at instanceof Error; depth++) {
    const code = (at as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    at = at.cause;
  }
  return codes;
}

/** Why `error` says the endpoint cannot be reached at all, or undefined when it is no such error. */
export function unreachableReason(error: unknown): Unreachable | undefined {
  if (!(error instanceof APIConnectionError)) return undefined;
  for (const code of codesOf(error)) {
    const known = BY_CODE[code];
    if (known) return { what: `${known.what} (${code})`, hint: known.hint };
    if (TLS_CODES.has(code))
      return {
        what: `the TLS handshake failed (${code})`,
        hint: `${URL_HINT}: http:// for a local server without TLS, or the server's certificate (NODE_EXTRA_CA_CERTS for a private CA)`,
      };
  }
  return undefined;
}

/** Endpoints (by identity) that answered at least once in this process, an error status included. */
const answered = new Set<string>();

export const markAnswered = (endpoint: string): void => {
  answered.add(endpoint);
};

export const hasAnswered = (endpoint: string): boolean => answered.has(endpoint);
