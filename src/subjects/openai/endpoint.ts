import { UsageError } from '../../errors.js';

export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';

export type Env = Record<string, string | undefined>;

export interface Endpoint {
  /** Without query or fragment: the SDK appends paths to it. */
  baseURL: string;
  apiKey: string;
  /** Query parameters of the configured base URL (e.g. Azure's api-version), sent with every request. */
  defaultQuery?: Record<string, string>;
  /** The base URL without credentials, query or fragment: safe for reports and cache keys. */
  identity: string;
}

/** Removes userinfo, query and fragment (where providers sometimes carry keys) and trailing slashes. */
export function sanitizeEndpoint(baseURL: string): string {
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    throw new UsageError(`OPENAI_BASE_URL '${baseURL}' is not a URL; set it to e.g. ${DEFAULT_OPENAI_BASE_URL}`);
  }
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

/** Base URL and key from explicit options, else OPENAI_BASE_URL / OPENAI_API_KEY, else the OpenAI default URL. */
export function resolveEndpoint(options: { baseURL?: string; apiKey?: string; env?: Env }): Endpoint {
  const env = options.env ?? process.env;
  const baseURL = options.baseURL ?? (env.OPENAI_BASE_URL || undefined) ?? DEFAULT_OPENAI_BASE_URL;
  const apiKey = options.apiKey ?? (env.OPENAI_API_KEY || undefined);
  if (apiKey === undefined) {
    throw new UsageError(
      'openai subject: no API key; set OPENAI_API_KEY (any non-empty value for local servers such as vLLM or Ollama)',
    );
  }
  const identity = sanitizeEndpoint(baseURL);
  const url = new URL(baseURL);
  if (url.username !== '' || url.password !== '') {
    throw new UsageError(
      'OPENAI_BASE_URL contains credentials (user:password@host); remove them and pass the key in OPENAI_API_KEY',
    );
  }
  const query = Object.fromEntries(url.searchParams);
  return {
    baseURL: `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`,
    apiKey,
    identity,
    ...(Object.keys(query).length > 0 ? { defaultQuery: query } : {}),
  };
}
