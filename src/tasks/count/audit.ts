import type { FinishReason } from '../task.js';
import { FORMAT_CATEGORIES, type FormatCategory } from './format.js';
import { scanLastInteger } from './parse.js';
import { DEFAULT_MOTIF, type Motif } from './stimulus.js';

export { FORMAT_CATEGORIES, FORMAT_TITLES, type FormatCategory } from './format.js';

export interface AuditContext {
  /** 'length' when the output was cut at the token budget. */
  finishReason?: FinishReason;
  /** True when the request failed at the transport layer. */
  transportError?: boolean;
  motif?: Motif;
}

const STRICT_SINGLE_INTEGER = /^\s*[+-]?\p{Nd}+\s*$/u;
const REASONING_TAG = /<\/?(?:think|thinking|reasoning|reflection|scratchpad|thought)>/i;
const CODE_MARKERS = /```|`|\bprint\(|\blen\(|\bdef |\bimport |\.split\(/;
const COUNTING_WORDS = /count|group|row|step|let me|let's|total|tally|\bsum\b|wait|\+/i;
const LETTER = /\p{L}/u;

export const isStrictSingleInteger = (text: string): boolean => STRICT_SINGLE_INTEGER.test(text);

const DIGIT_RUN = /\p{Nd}+/gu;

/**
 * Number of maximal digit runs (what `re.findall(r'-?\d+')` would return), counted in one pass of the regex
 * engine (a test per character took seconds on a 10 MB answer).
 */
function integerCount(text: string): number {
  let count = 0;
  DIGIT_RUN.lastIndex = 0;
  while (DIGIT_RUN.exec(text) !== null) count++;
  return count;
}

/** Pieces of the text split at the motif's delimiter, trimmed (whitespace when the delimiter is blank). */
function motifPieces(text: string, motif: Motif): string[] {
  const separator = motif.delimiter.trim();
  const pieces = separator === '' ? text.split(/\s+/) : text.split(separator);
  return pieces.map((piece) => piece.trim()).filter((piece) => piece !== '');
}

/**
 * The text is nothing but the counted sequence copied back: ≥ 3 items, ≥ 90% of the pieces, and no words
 * around it (a copied stretch inside an explanation is step-by-step counting, not an echo).
 */
function isPromptEcho(text: string, motif: Motif): boolean {
  const pieces = motifPieces(text, motif);
  if (pieces.length < 3) return false;
  const others = pieces.filter((piece) => piece !== motif.item);
  if (others.some((piece) => LETTER.test(piece))) return false;
  return pieces.length - others.length >= 3 && others.length <= 0.1 * pieces.length;
}

/** Longest run of consecutive `item` pieces (a copied stretch of the sequence inside prose). */
function longestItemRun(text: string, motif: Motif): number {
  let best = 0;
  let run = 0;
  for (const piece of motifPieces(text, motif)) {
    run = piece === motif.item ? run + 1 : 0;
    if (run > best) best = run;
  }
  return best;
}

export function auditResponse(text: string, context: AuditContext = {}): FormatCategory {
  const motif = context.motif ?? DEFAULT_MOTIF;
  if (isStrictSingleInteger(text)) return 'single-integer';
  const trimmed = text.trim();
  const cutAtBudget = context.finishReason === 'length';
  if (trimmed === '') {
    if (context.transportError) return 'api';
    return cutAtBudget ? 'token-limit' : 'blank';
  }
  if (REASONING_TAG.test(trimmed)) return 'reasoning-tag';
  if (isPromptEcho(trimmed, motif)) return 'prompt-echo';
  const integers = integerCount(trimmed);
  if (integers === 0 || scanLastInteger(trimmed).kind !== 'integer') {
    return cutAtBudget ? 'token-limit' : 'no-number';
  }
  if (CODE_MARKERS.test(trimmed)) return 'code-markdown';
  if (integers === 1 && !LETTER.test(trimmed)) return 'stray-punctuation';
  const stepwise =
    integers >= 3 ||
    (integers >= 2 && COUNTING_WORDS.test(trimmed)) ||
    longestItemRun(trimmed, motif) >= 5 ||
    (cutAtBudget && COUNTING_WORDS.test(trimmed));
  return stepwise ? 'step-by-step' : 'extra-prose';
}

export interface AuditRow {
  category: FormatCategory;
  cases: number;
  /** Cases whose text still yields an integer under the last-integer parser. */
  parsed: number;
  /** Distinct models (or subjects) with at least one case. */
  models: number;
}

export interface AuditedResponse {
  model: string;
  category: FormatCategory;
  parsed: boolean;
}

/** Table S2-style aggregation: one row per category, in FORMAT_CATEGORIES order, with cases > 0. */
export function auditTable(responses: Iterable<AuditedResponse>): AuditRow[] {
  const rows = new Map<FormatCategory, { cases: number; parsed: number; models: Set<string> }>();
  for (const response of responses) {
    const row = rows.get(response.category) ?? { cases: 0, parsed: 0, models: new Set<string>() };
    row.cases++;
    if (response.parsed) row.parsed++;
    row.models.add(response.model);
    rows.set(response.category, row);
  }
  return FORMAT_CATEGORIES.flatMap((category) => {
    const row = rows.get(category);
    return row ? [{ category, cases: row.cases, parsed: row.parsed, models: row.models.size }] : [];
  });
}
