/**
 * The error body of a non-2xx answer, in whatever shape the provider sent it, read into one record: the
 * provider's own message (for the trial's issue and the console), its code/type/status, and the wait it asks
 * for in the body (Google's `RetryInfo.retryDelay`). Shapes read:
 *
 *   OpenAI          {"error": {"message", "type", "code", "param"}}
 *   Google/Gemini   [{"error": {"code": 429, "message", "status": "RESOURCE_EXHAUSTED", "details": [{"@type":
 *                   "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "40s"}]}}]   (a JSON list)
 *   vLLM            {"object": "error", "message", "type", "code"}
 *   FastAPI         {"detail": "…"} or {"detail": [{"loc", "msg", "type"}]}
 *   Ollama & co     {"error": "…"}
 *   a JSON string   "…"
 *   text            "404 page not found", or an HTML page from a proxy (tags stripped, bounded)
 */
export interface ProviderErrorBody {
  /** The provider's message, one line, at most MESSAGE_MAX characters; absent when the body said nothing. */
  message?: string;
  code?: string | number;
  type?: string;
  /** Google's status name (`RESOURCE_EXHAUSTED`, `UNAVAILABLE`). */
  status?: string;
  param?: string | null;
  /** The wait the body asks for (Google's RetryInfo.retryDelay), in ms. */
  retryDelayMs?: number;
}

export const MESSAGE_MAX = 300;

/** One line, bounded: a provider message goes into a trial's issue and a console line. */
export function oneLine(text: string, max = MESSAGE_MAX): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/**
 * A protobuf Duration in its JSON form (`"40s"`, `"1.5s"`, `"0.020s"`), or an object `{seconds, nanos}`, in ms;
 * undefined when it cannot be read.
 */
export function parseGoogleDuration(value: unknown): number | undefined {
  if (typeof value === 'string') {
    const match = /^\s*(\d+(?:\.\d+)?)s\s*$/.exec(value);
    return match ? Number.parseFloat(match[1]) * 1000 : undefined;
  }
  if (typeof value === 'object' && value !== null) {
    const { seconds, nanos } = value as { seconds?: unknown; nanos?: unknown };
    const s = Number(seconds ?? 0);
    const n = Number(nanos ?? 0);
    if (Number.isFinite(s) && Number.isFinite(n) && (seconds !== undefined || nanos !== undefined)) {
      return s * 1000 + n / 1e6;
    }
  }
  return undefined;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** The text of an HTML page: the title and body text, scripts and styles dropped, entities decoded. */
export function htmlText(html: string): string {
  return html
    .slice(0, 100_000)
    .replace(/<(script|style|head)\b[\s\S]*?<\/\1\s*>/gi, (block) => {
      const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(block);
      return title ? ` ${title[1]} ` : ' ';
    })
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (entity, name: string) => {
      if (name.startsWith('#x') || name.startsWith('#X'))
        return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
      if (name.startsWith('#')) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
      return ENTITIES[name.toLowerCase()] ?? entity;
    });
}

const looksLikeHtml = (text: string): boolean =>
  /^\s*(<!doctype html|<html|<head|<body|<title|<h1|<center)/i.test(text);

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Google's RetryInfo among `details`. */
function retryDelayOf(details: unknown): number | undefined {
  if (!Array.isArray(details)) return undefined;
  for (const detail of details) {
    if (!isObject(detail)) continue;
    const type = detail['@type'];
    if (typeof type === 'string' && type.endsWith('google.rpc.RetryInfo')) {
      const ms = parseGoogleDuration(detail.retryDelay);
      if (ms !== undefined) return ms;
    }
  }
  return undefined;
}

/** An object carrying the error's fields (OpenAI's `error`, vLLM's top level). */
function fromFields(fields: Json): ProviderErrorBody {
  const read: ProviderErrorBody = {};
  const message = fields.message ?? fields.msg ?? fields.detail;
  if (typeof message === 'string' && message.trim() !== '') read.message = oneLine(message);
  else if (message !== undefined && message !== null) read.message = oneLine(JSON.stringify(message));
  if (typeof fields.code === 'string' || typeof fields.code === 'number') read.code = fields.code;
  if (typeof fields.type === 'string') read.type = fields.type;
  if (typeof fields.status === 'string') read.status = fields.status;
  if (typeof fields.param === 'string' || fields.param === null) read.param = fields.param;
  const delay = retryDelayOf(fields.details);
  if (delay !== undefined) read.retryDelayMs = delay;
  return read;
}

/** FastAPI's validation list: `[{loc: ['body', 'x'], msg: '…'}]` → "body.x: …". */
function detailList(detail: unknown[]): string {
  return detail
    .map((item) => {
      if (!isObject(item)) return String(item);
      const loc = Array.isArray(item.loc) ? `${item.loc.join('.')}: ` : '';
      return `${loc}${typeof item.msg === 'string' ? item.msg : JSON.stringify(item)}`;
    })
    .join('; ');
}

/** A parsed JSON body, any shape (see the module comment). */
function fromJson(body: unknown, depth = 0): ProviderErrorBody {
  if (typeof body === 'string') return readErrorBody(undefined, body);
  if (Array.isArray(body)) {
    // Google's list of errors: the first that says something
    if (depth > 2) return {};
    for (const item of body) {
      const read = fromJson(item, depth + 1);
      if (Object.keys(read).length > 0) return read;
    }
    return {};
  }
  if (!isObject(body)) return body == null ? {} : { message: oneLine(JSON.stringify(body)) };
  if (typeof body.error === 'string') return { ...fromFields(body), message: oneLine(body.error) };
  if (isObject(body.error)) return fromFields(body.error);
  if (Array.isArray(body.detail)) return { message: oneLine(detailList(body.detail)) };
  if (body.message !== undefined || body.detail !== undefined) return fromFields(body);
  return Object.keys(body).length === 0 ? {} : { message: oneLine(JSON.stringify(body)) };
}

/**
 * Reads an error body. `json` is the body parsed as JSON (undefined when it is not JSON), `text` the raw body
 * when it is not JSON (the openai SDK hands over one or the other).
 */
export function readErrorBody(json: unknown, text?: string): ProviderErrorBody {
  if (json !== undefined) return fromJson(json);
  if (text === undefined || text.trim() === '') return {};
  const plain = looksLikeHtml(text) ? htmlText(text) : text;
  return plain.trim() === '' ? {} : { message: oneLine(plain) };
}

/**
 * The body the SDK's APIError is built from: `{error: {…}}` with the provider's fields (an OpenAI body's own
 * fields all kept, so learning from a rejected default still reads `param`/`code`) plus what `readErrorBody`
 * found. The SDK's message then is the provider's message whatever the shape.
 */
export function errorEnvelope(json: unknown, text?: string): { error: Json } | undefined {
  const read = readErrorBody(json, text);
  if (Object.keys(read).length === 0) return undefined;
  const own = isObject(json) && isObject(json.error) ? json.error : isObject(json) && !('error' in json) ? json : {};
  return { error: { ...own, ...read } };
}

/** The record `errorEnvelope` put on an APIError (`error.error`), read back. */
export function providerErrorOf(error: { error?: unknown }): ProviderErrorBody {
  return isObject(error.error) ? (error.error as ProviderErrorBody) : {};
}
