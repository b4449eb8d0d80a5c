/**
 * The authors' `extract_json_object` (count_scatter_control_common.py), used by both the dual-task and the
 * agent-operation runners, with the same candidate order: the first ```json fence, the whole stripped text
 * when it is braced, then every balanced-brace object by start position; the first candidate that parses
 * to an object wins.
 *
 * A candidate that is not JSON gets the authors' second chance, `ast.literal_eval` (python-literal.ts, a
 * subset: dicts, lists, tuples, quoted strings, numbers, True/False/None). Strict JSON-only stays JSON.
 *
 * Difference, on purpose: the authors restart the balanced-brace scan at every '{' (quadratic); here at most
 * MAX_BRACE_STARTS start positions are tried, so the scan is linear in the text length.
 */
import { pythonDictLiteral } from './python-literal.js';

export const MAX_BRACE_STARTS = 64;

export type JsonObject = Record<string, unknown>;

export type JsonExtraction = { ok: true; value: JsonObject } | { ok: false; reason: string };
/** `end`: the index in the text just after the object that was read (what follows it is read by finality rules). */
type LocatedExtraction = { ok: true; value: JsonObject; end: number } | { ok: false; reason: string };

const WHITESPACE = /\s/u;
const isWs = (c: string | undefined): boolean => c !== undefined && WHITESPACE.test(c);

/** json.loads, then (only when that raised) ast.literal_eval; an object, or the reason there is none. */
function parseObject(candidate: string, literalFallback = true): JsonObject | string {
  let value: unknown;
  try {
    value = JSON.parse(candidate);
  } catch (error) {
    const literal = literalFallback ? pythonDictLiteral(candidate) : null;
    return literal ?? (error instanceof Error ? error.message : String(error));
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as JsonObject;
  return `json_root_${value === null ? 'NoneType' : Array.isArray(value) ? 'list' : typeof value}`;
}

/**
 * `re.search(r"```(?:json)?\s*(\{.*?\})\s*```", s, DOTALL | IGNORECASE)` in linear time: for each '}' we
 * precompute whether whitespace and a closing fence follow it, and the nearest such '}' at or after each index.
 */
function firstFenceCandidate(s: string): { start: number; end: number } | null {
  const n = s.length;
  const nextCloser = new Int32Array(n + 1).fill(-1);
  let nextNonWs = n;
  for (let i = n - 1; i >= 0; i--) {
    nextCloser[i] = nextCloser[i + 1];
    if (s[i] === '}' && s.startsWith('```', nextNonWs)) nextCloser[i] = i;
    if (!isWs(s[i])) nextNonWs = i;
  }
  for (let fence = s.indexOf('```'); fence !== -1; fence = s.indexOf('```', fence + 1)) {
    let i = fence + 3;
    if (s.slice(i, i + 4).toLowerCase() === 'json') i += 4;
    while (i < n && isWs(s[i])) i++;
    if (s[i] !== '{') continue;
    const close = nextCloser[i];
    if (close !== -1) return { start: i, end: close + 1 };
  }
  return null;
}

/**
 * One left-to-right reading of the text from a '{', as the authors' loop reads it from each start (string state,
 * brace depth). A later start that this reading reaches outside a string is read the same way from there on, so
 * its balancing '}' is where this reading's depth comes back to its depth before it: one reading serves every such
 * start, and only a start it reaches inside a string needs a reading of its own.
 */
interface Reading {
  at: number;
  inString: boolean;
  escaped: boolean;
  depth: number;
  /** The starts this reading serves that are not closed yet, innermost last, with the depth that closes each. */
  open: Array<{ start: number; closesAt: number }>;
}

/**
 * Objects starting at successive '{' (at most MAX_BRACE_STARTS), each cut at its balancing '}' (strings
 * respected), in order of their start. The same candidates as a scan from every start; but an unclosed text is
 * read once per string state rather than once per start (64 times over a 10 MB answer that never closes).
 */
export function* balancedCandidates(s: string, from = 0): Generator<{ start: number; end: number }> {
  const starts: number[] = [];
  for (let i = s.indexOf('{', from); i !== -1 && starts.length < MAX_BRACE_STARTS; i = s.indexOf('{', i + 1)) {
    starts.push(i);
  }
  const isStart = new Set(starts);
  const servedBy = new Map<number, Reading>();
  const ends = new Map<number, number>();
  const readings: Reading[] = [];

  const readUntil = (reading: Reading, stop: (reading: Reading) => boolean): void => {
    while (reading.at < s.length && !stop(reading)) {
      const i = reading.at++;
      const c = s[i];
      if (reading.inString) {
        if (reading.escaped) reading.escaped = false;
        else if (c === '\\') reading.escaped = true;
        else if (c === '"') reading.inString = false;
        continue;
      }
      if (c === '"') reading.inString = true;
      else if (c === '{') {
        if (isStart.has(i) && !servedBy.has(i)) {
          servedBy.set(i, reading);
          reading.open.push({ start: i, closesAt: reading.depth });
        }
        reading.depth++;
      } else if (c === '}') {
        reading.depth--;
        const innermost = reading.open.at(-1);
        if (innermost !== undefined && innermost.closesAt === reading.depth) {
          reading.open.pop();
          ends.set(innermost.start, i + 1);
        }
      }
    }
  };

  for (const start of starts) {
    if (!servedBy.has(start)) {
      // a reading not yet past this start serves it when it gets there outside a string
      for (const reading of readings) {
        if (reading.at > start) continue;
        readUntil(reading, (r) => r.at === start);
        if (!reading.inString) {
          readUntil(reading, (r) => r.at > start);
          break;
        }
      }
      if (!servedBy.has(start)) {
        const reading: Reading = { at: start, inString: false, escaped: false, depth: 0, open: [] };
        readings.push(reading);
        readUntil(reading, (r) => r.at > start);
      }
    }
    const reading = servedBy.get(start) as Reading;
    readUntil(reading, () => ends.has(start));
    const end = ends.get(start);
    if (end !== undefined) yield { start, end };
  }
}

export function extractJsonObject(text: string): JsonExtraction {
  const located = locateJsonObject(text);
  return located.ok ? { ok: true, value: located.value } : located;
}

/** `extractJsonObject`, with where the object that was read ends in `text`. */
export function locateJsonObject(text: string): LocatedExtraction {
  const stripped = text.trim();
  if (stripped === '') return { ok: false, reason: 'empty_response' };
  const offset = text.length - text.trimStart().length;
  const errors: string[] = [];
  const fixed: Array<{ start: number; end: number }> = [];
  const fence = firstFenceCandidate(stripped);
  if (fence !== null) fixed.push(fence);
  if (stripped.startsWith('{') && stripped.endsWith('}')) fixed.push({ start: 0, end: stripped.length });
  const tried = (candidate: { start: number; end: number }): LocatedExtraction | null => {
    const parsed = parseObject(stripped.slice(candidate.start, candidate.end));
    if (typeof parsed === 'string') {
      errors.push(parsed);
      return null;
    }
    return { ok: true, value: parsed, end: offset + candidate.end };
  };
  for (const candidate of fixed) {
    const value = tried(candidate);
    if (value) return value;
  }
  for (const candidate of balancedCandidates(stripped)) {
    const value = tried(candidate);
    if (value) return value;
  }
  return { ok: false, reason: errors.length > 0 ? errors.slice(0, 3).join('; ') : 'no_json_object' };
}

/** The object a balanced candidate parses to (JSON, then the Python-literal fallback), or null. */
export function objectAt(text: string, candidate: { start: number; end: number }): JsonObject | null {
  const parsed = parseObject(text.slice(candidate.start, candidate.end));
  return typeof parsed === 'string' ? null : parsed;
}

/** The agent runner's `strict_json_only`: a parsed object and the stripped text is exactly one JSON object. */
export function isStrictJsonOnly(text: string, parsed: boolean): boolean {
  const stripped = text.trim();
  if (!parsed || !stripped.startsWith('{') || !stripped.endsWith('}')) return false;
  return typeof parseObject(stripped, false) !== 'string';
}

const PY_INT_TEXT = /^[+-]?\d+(?:_\d+)*$/;

/**
 * Python's `int(value)` on a JSON value, None where it raises TypeError/ValueError: integers, floats
 * truncated toward zero, strings of decimal digits (surrounding whitespace allowed). `booleans` says whether
 * True/False count as 1/0 (the dual runner's `parse_int`) or as None (the agent runner's `coerce_int`).
 */
export function pythonInt(value: unknown, booleans: 'int' | 'none'): number | null {
  if (typeof value === 'boolean') return booleans === 'int' ? Number(value) : null;
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) : null;
  if (typeof value === 'string') {
    const text = value.trim();
    if (!PY_INT_TEXT.test(text)) return null;
    const parsed = Number(text.replaceAll('_', ''));
    return Number.isSafeInteger(parsed) ? parsed : null;
  }
  return null;
}
