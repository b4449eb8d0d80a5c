/**
 * The normalise stage's rules about characters and markup that carry no answer (docs/outputs.md, "Everything else
 * applied before a task sees the text"): readResponse (response.ts) applies them to the answer channel of every
 * family. Pure and linear in the text length.
 */
import { ANSWER_MARKERS } from './reasoning-channels.js';

/** Any decimal digit (Unicode category Nd) outside ASCII, and the full-width forms of ASCII (U+FF01–U+FF5E). */
const COMPATIBILITY = /[\uff01-\uff5e]|(?![0-9])\p{Nd}/gu;
const HAS_COMPATIBILITY = new RegExp(COMPATIBILITY.source, 'u');
const ND = /\p{Nd}/u;

/** The ASCII digit of a decimal digit: Nd digits come in contiguous runs of whole 0–9 blocks (at most 50 long). */
function asciiDigit(codePoint: number): string {
  let start = codePoint;
  while (start - 1 >= 0 && ND.test(String.fromCodePoint(start - 1))) start--;
  return String((codePoint - start) % 10);
}

/**
 * Each character's replacement, once per character (a pure function of it): a hostile answer repeats a handful
 * of them millions of times, and each asciiDigit walks back through its block. At most the Nd code points (some 700)
 * and 94 full-width forms.
 */
const REPLACEMENTS = new Map<string, string>();
function compatibilityForm(ch: string): string {
  let ascii = REPLACEMENTS.get(ch);
  if (ascii === undefined) {
    const code = ch.codePointAt(0) ?? 0;
    ascii = code >= 0xff01 && code <= 0xff5e ? String.fromCharCode(code - 0xfee0) : asciiDigit(code);
    REPLACEMENTS.set(ch, ascii);
  }
  return ascii;
}

/**
 * Digits and ASCII punctuation are read after Unicode compatibility normalisation, as NFKC reads them: the
 * full-width forms (`［［５，８，１］…`) become ASCII, and so do the decimal digits of other scripts (Arabic-Indic
 * `٤٢`, Devanagari `४२`, …), with their values. Nothing else changes (NFKC's other mappings, superscripts or
 * ligatures, are not answers). Pure and linear in the text length.
 */
export function normalizeCompatibility(text: string): string {
  if (!HAS_COMPATIBILITY.test(text)) return text;
  return text.replace(COMPATIBILITY, compatibilityForm);
}

const MARKERS = new RegExp(ANSWER_MARKERS.map((m) => m.replace(/[|]/g, '\\|')).join('|'), 'gi');

/**
 * Markup that is not part of the answer: comments (`<!-- … -->`), so a model that hides a second answer in one
 * is read by what it shows (a comment never closed runs to the end of the text), and the markers of the table's
 * ANSWER_MARKERS (each becomes a line break). Linear in the text length.
 */
export function stripMarkupComments(text: string): string {
  const unmarked = text.includes('<|') ? text.replace(MARKERS, '\n') : text;
  return withoutComments(unmarked);
}

function withoutComments(text: string): string {
  let at = text.indexOf('<!--');
  if (at < 0) return text;
  const out: string[] = [];
  let from = 0;
  while (at >= 0) {
    out.push(text.slice(from, at));
    const close = text.indexOf('-->', at + 4);
    if (close < 0) return out.join('');
    from = close + 3;
    at = text.indexOf('<!--', from);
  }
  out.push(text.slice(from));
  return out.join('');
}
