/**
 * Redaction of secrets (the API key, every configured header value) from any text ceilingbench writes: trial
 * issues, stop messages, the console, the report set. A provider's error body does not echo a key verbatim only:
 * it lower- or upper-cases it, JSON-escapes it (`sk\u002dtest…`), URL-encodes it (`sk%2Dtest…`), or shows a part
 * of it (`Incorrect API key provided: sk-proj-abcd1234****wxyz`). Each character of a secret is matched in any
 * case and in any of those encodings, and any run of PARTIAL consecutive characters of the secret is replaced, so
 * a prefix or a suffix of the key is gone too. Secrets shorter than MIN_SECRET are not redacted (a placeholder key
 * such as `x` for a local server is no secret, and would mangle every text).
 */

export const REDACTED = '***';
/** Shorter values are no secrets worth mangling text for. */
export const MIN_SECRET = 4;
/** A run of this many consecutive characters of a secret, in any case and encoding, is redacted. */
export const PARTIAL = 8;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** Every way one character may be written: itself in any case, \uXXXX (JSON), %XX (URL, UTF-8), &#…; (HTML). */
function charPattern(c: string): string {
  const alternatives = new Set<string>();
  // JSON's two-character escapes first, so a replacement never leaves half of one (`\***`)
  if (c === '"') alternatives.add('\\\\"');
  if (c === '\\') alternatives.add('\\\\\\\\');
  alternatives.add(escapeRegExp(c.toLowerCase()));
  alternatives.add(escapeRegExp(c.toUpperCase()));
  const code = c.codePointAt(0) as number;
  const hex4 = code.toString(16).padStart(4, '0');
  // one backslash, or several: a JSON string inside a JSON string escapes its escapes
  alternatives.add(`\\\\+u${hex4.replace(/[a-f]/g, (h) => `[${h}${h.toUpperCase()}]`)}`);
  const utf8 = [...new TextEncoder().encode(c)]
    .map(
      (b) =>
        `%${b
          .toString(16)
          .padStart(2, '0')
          .replace(/[a-f]/g, (h) => `[${h}${h.toUpperCase()}]`)}`,
    )
    .join('');
  alternatives.add(utf8);
  alternatives.add(`&#0*${code};`);
  alternatives.add(`&#[xX]0*${code.toString(16).replace(/[a-f]/g, (h) => `[${h}${h.toUpperCase()}]`)};`);
  if (c === ' ') alternatives.add('\\+');
  if (c === '/') alternatives.add('\\\\/');
  return `(?:${[...alternatives].join('|')})`;
}

/** The windows of a secret to look for: the whole of a short one, every PARTIAL-long run of a longer one. */
function windows(secret: string, partial: boolean): string[] {
  const chars = [...secret];
  if (!partial || chars.length <= PARTIAL) return [secret];
  return Array.from({ length: chars.length - PARTIAL + 1 }, (_, i) => chars.slice(i, i + PARTIAL).join(''));
}

const cache = new Map<string, RegExp>();

/** One regex finding, at any position, the longest encoded window of any secret starting there. */
function patternOf(secrets: readonly string[], partial: boolean): RegExp | undefined {
  const usable = [...new Set(secrets.filter((s) => typeof s === 'string' && [...s].length >= MIN_SECRET))];
  if (usable.length === 0) return undefined;
  const key = `${partial}\u0000${usable.join('\u0000')}`;
  let re = cache.get(key);
  if (!re) {
    const alts = [...new Set(usable.flatMap((s) => windows(s, partial)))].map((w) => [...w].map(charPattern).join(''));
    re = new RegExp(`(?=(${alts.join('|')}))`, 'g');
    if (cache.size > 32) cache.clear();
    cache.set(key, re);
  }
  re.lastIndex = 0;
  return re;
}

/**
 * `text` with every occurrence of a secret, or of a PARTIAL-long part of one, in any case or encoding, as ***.
 * `partial: false` redacts whole secrets only (any case, any encoding): for text ceilingbench wrote itself, where
 * its own words may share a run of characters with a secret (a key or a header value naming the tool, such as
 * OpenRouter's `X-Title: ceilingbench`) and must not be mangled — what a provider said was redacted, parts
 * included, where it entered (the trial's issue, the stop message).
 */
export function redact(text: string, secrets: readonly string[], options: { partial?: boolean } = {}): string {
  const re = patternOf(secrets, options.partial ?? true);
  if (!re || text === '') return text;
  // the spans covered by a match at any position (windows overlap: a whole key is the union of its windows)
  const spans: Array<[number, number]> = [];
  for (const m of text.matchAll(re)) spans.push([m.index, m.index + m[1].length]);
  if (spans.length === 0) return text;
  let out = '';
  let at = 0;
  let open: [number, number] | undefined;
  for (const [start, end] of spans) {
    if (open && start <= open[1]) open[1] = Math.max(open[1], end);
    else {
      if (open) {
        out += text.slice(at, open[0]) + REDACTED;
        at = open[1];
      }
      open = [start, end];
    }
  }
  if (open) out += text.slice(at, open[0]) + REDACTED + text.slice(open[1]);
  return out;
}

/**
 * The secrets a run was configured with, from its environment: OPENAI_API_KEY and every value of
 * CEILINGBENCH_HEADERS (read leniently: a value that is not a JSON object yields none, the subject reports it).
 */
export function secretsFromEnv(env: Record<string, string | undefined>): string[] {
  const secrets: string[] = [];
  if (env.OPENAI_API_KEY) secrets.push(env.OPENAI_API_KEY);
  try {
    const headers = JSON.parse(env.CEILINGBENCH_HEADERS ?? '{}') as unknown;
    if (headers && typeof headers === 'object' && !Array.isArray(headers))
      for (const value of Object.values(headers)) if (typeof value === 'string') secrets.push(value);
  } catch {
    // not JSON: no header is sent, none to redact
  }
  return secrets;
}
