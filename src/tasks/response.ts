/**
 * A model response as two channels: the reasoning (never graded) and the answer text a task parses.
 * Every registered task grades through `readResponse` (see `withResponseChannels`), so a family never
 * sees a reasoning block, a BOM or a CRLF. The delimiters are data (reasoning-channels.ts). Pure and linear in
 * the text length for a fixed set of delimiters.
 */

import { normalizeCompatibility, stripMarkupComments } from './answer-markup.js';
import { HARMONY, REASONING_CHANNELS, type ReasoningDelimiter } from './reasoning-channels.js';

export interface ResponseChannels {
  /** What the task grades: the text outside reasoning blocks, with whitespace normalised. */
  answer: string;
  /** The reasoning set aside, in order: the provider's field first, then inline blocks. */
  reasoning: string;
  /** Where reasoning came from. */
  sources: Array<'provider' | 'inline'>;
  /**
   * The output ended while still reasoning: an opening delimiter never closed, or Harmony markup without a
   * `final` channel.
   */
  unclosed: boolean;
}

/** Characters that render as a space but are not ASCII spaces (NBSP, figure/thin/narrow spaces, ideographic). */
const ODD_SPACES = /[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/g;
/**
 * Characters that render as nothing: zero-width space, non-joiner and joiner, the word joiner, and the BOM
 * (zero-width no-break space), wherever they occur. Removed, not spaced: `[[1,\u200b2]]` reads `[[1,2]]`.
 */
const ZERO_WIDTH = /\u200b|\u200c|\u200d|\u2060|\ufeff/g;

/**
 * Line endings, BOMs, zero-width characters, odd spaces, trailing spaces and blank lines carry no answer: CRLF
 * and CR become LF, zero-width characters go, NBSP-like spaces become spaces, trailing horizontal whitespace and
 * blank lines are dropped, and the whole text is trimmed. No parser may depend on what this removes.
 */
export function normalizeWhitespace(text: string): string {
  let lf = text.replace(ZERO_WIDTH, '').replace(ODD_SPACES, ' ');
  if (lf.includes('\r')) lf = lf.replace(/\r\n?/g, '\n');
  // Each line without its trailing whitespace, blank lines dropped. Lines are not cut apart: a run of lines that
  // need no change is one slice of the text (a long answer is a handful of slices, not one string per line).
  const runs: string[] = [];
  let runStart = -1;
  let runEnd = -1;
  for (let lineStart = 0; lineStart <= lf.length; ) {
    const newline = lf.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? lf.length : newline;
    let end = lineEnd;
    while (end > lineStart && trimmedByTrim(lf.charCodeAt(end - 1))) end--;
    if (end > lineStart) {
      if (runStart !== -1 && runEnd === lineStart - 1) runEnd = end;
      else {
        if (runStart !== -1) runs.push(lf.slice(runStart, runEnd));
        runStart = lineStart;
        runEnd = end;
      }
    }
    lineStart = lineEnd + 1;
  }
  if (runStart !== -1) runs.push(lf.slice(runStart, runEnd));
  return runs.join('\n').trim();
}

/** What `String.prototype.trimEnd` removes: ECMAScript's WhiteSpace and LineTerminator code units (`\s`). */
function trimmedByTrim(code: number): boolean {
  return (
    (code >= 0x09 && code <= 0x0d) ||
    code === 0x20 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

interface Split {
  answer: string;
  reasoning: string[];
  unclosed: boolean;
}

/** A delimiter as a regex source: literal, except that an XML-like tag also takes spaces before its `>`. */
function delimiterSource(literal: string): string {
  const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  return /^<[^<>]+>$/.test(literal) ? `${escaped(literal.slice(0, -1))}\\s*>` : escaped(literal);
}

interface Tag {
  start: number;
  end: number;
  closing: boolean;
  /** Index of the delimiter in the reader's list. */
  which: number;
}

/** The delimiters compiled once: one alternation of every opening and closing delimiter, longest first. */
interface Reader {
  pattern: RegExp;
  /** Per alternative (capture group order): which delimiter, and whether it closes. */
  groups: Array<{ which: number; closing: boolean }>;
}

function compile(delimiters: readonly ReasoningDelimiter[]): Reader {
  const alternatives = delimiters.flatMap((d, which) => [
    { source: delimiterSource(d.open), length: d.open.length, which, closing: false },
    { source: delimiterSource(d.close), length: d.close.length, which, closing: true },
  ]);
  // at one position the longest delimiter wins (a user's `<think-long>` over a built-in prefix of it)
  alternatives.sort((a, b) => b.length - a.length);
  return {
    pattern: new RegExp(alternatives.map((a) => `(${a.source})`).join('|'), 'gi'),
    groups: alternatives.map(({ which, closing }) => ({ which, closing })),
  };
}

function nextTag(reader: Reader, text: string, from: number): Tag | null {
  reader.pattern.lastIndex = from;
  const m = reader.pattern.exec(text);
  if (m === null) return null;
  const group = reader.groups[m.findIndex((g, i) => i > 0 && g !== undefined) - 1];
  if (group === undefined) return null;
  return { start: m.index, end: m.index + m[0].length, ...group };
}

function findClosing(reader: Reader, text: string, from: number, which: number): Tag | null {
  for (let tag = nextTag(reader, text, from); tag !== null; tag = nextTag(reader, text, tag.end)) {
    if (tag.closing && tag.which === which) return tag;
  }
  return null;
}

/**
 * Splits tagged reasoning from the answer. A block runs from an opening delimiter to the next closing delimiter
 * of the same kind; an opening never closed makes the rest of the text reasoning (`unclosed`). A closing
 * delimiter before any opening one ends a block whose opening was in the prompt (chat templates that pre-fill
 * `<think>`): the text before it is reasoning. Stray closing delimiters elsewhere are dropped.
 */
function splitTagged(reader: Reader, text: string): Split {
  const answer: string[] = [];
  const reasoning: string[] = [];
  let at = 0;
  let first = true;
  for (let tag = nextTag(reader, text, 0); tag !== null; tag = nextTag(reader, text, at)) {
    if (tag.closing) {
      if (first) reasoning.push(text.slice(0, tag.start));
      else answer.push(text.slice(at, tag.start));
      at = tag.end;
      first = false;
      continue;
    }
    first = false;
    answer.push(text.slice(at, tag.start));
    const close = findClosing(reader, text, tag.end, tag.which);
    if (close === null) {
      reasoning.push(text.slice(tag.end));
      return { answer: answer.join('\n'), reasoning, unclosed: true };
    }
    reasoning.push(text.slice(tag.end, close.start));
    at = close.end;
  }
  answer.push(text.slice(at));
  return { answer: answer.join('\n'), reasoning, unclosed: false };
}

/** Where a Harmony message body ends: an end token, the next message's start or channel, or the text's end. */
const HARMONY_BODY_END = new RegExp(
  [...HARMONY.ends, HARMONY.start, HARMONY.channel].map((t) => t.replace(/[|]/g, '\\|')).join('|'),
  'g',
);
/** A message's start with its role, and any other special token, in text outside a message. */
const HARMONY_HEADER = /<\|start\|>\s*assistant/g;
const HARMONY_TOKEN = /<\|[a-z_]+\|>/g;

/**
 * Harmony with its special tokens in the content. Every message outside the `final` channel, and any text before
 * the first channel (a template that pre-filled `<|channel|>analysis<|message|>`), is reasoning. Without a
 * final channel the output ended before its answer (`unclosed`); an empty final channel is an empty answer.
 * A non-final message the output ended in (no end token) after a final one is also `unclosed`: the model was
 * reasoning again when it stopped, so the earlier final answer was not its last word.
 */
function splitHarmony(text: string): Split {
  const answer: string[] = [];
  const reasoning: string[] = [];
  let at = text.indexOf(HARMONY.channel);
  const before = text.slice(0, at).replace(HARMONY_HEADER, '\n').replace(HARMONY_TOKEN, '\n');
  if (before.trim() !== '') reasoning.push(before);
  let final = false;
  let cutInReasoning = false;
  while (at !== -1) {
    const headerStart = at + HARMONY.channel.length;
    const messageAt = text.indexOf(HARMONY.message, headerStart);
    const nextChannel = text.indexOf(HARMONY.channel, headerStart);
    if (messageAt === -1 || (nextChannel !== -1 && nextChannel < messageAt)) {
      // a header without a body (cut off, or malformed): nothing to read in it
      cutInReasoning = nextChannel === -1;
      at = nextChannel;
      continue;
    }
    const channel = /^\s*([A-Za-z_]+)/.exec(text.slice(headerStart, messageAt))?.[1]?.toLowerCase() ?? '';
    const bodyStart = messageAt + HARMONY.message.length;
    HARMONY_BODY_END.lastIndex = bodyStart;
    const end = HARMONY_BODY_END.exec(text);
    const body = text.slice(bodyStart, end === null ? text.length : end.index);
    if (channel === HARMONY.answerChannel) {
      final = true;
      answer.push(body);
    } else reasoning.push(body);
    // reasoning the output ended in, after a final channel, reopens the answer like an unclosed block
    cutInReasoning = channel !== HARMONY.answerChannel && end === null;
    at = end === null ? -1 : text.indexOf(HARMONY.channel, end.index);
  }
  return { answer: answer.join('\n'), reasoning, unclosed: !final || cutInReasoning };
}

/** The stripped Harmony form: `analysis` glued to the first word of the analysis text, at the very start. */
const STRIPPED_HARMONY = new RegExp(`^\\s*${HARMONY.stripped.start}(?=[\\p{L}\\p{N}])`, 'u');

/**
 * Whether the text, past leading whitespace and zero-width characters, starts as the stripped form does: the test
 * before the whole text is copied without its zero-width characters to read it.
 */
function mayBeStrippedHarmony(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (trimmedByTrim(code) || (code >= 0x200b && code <= 0x200d) || code === 0x2060) continue;
    return text.startsWith(HARMONY.stripped.start[0], i);
  }
  return false;
}

/** A later message of the stripped form: the role glued to a channel other than `final`. */
const STRIPPED_REOPENED = /assistant(?:analysis|commentary)/;

/**
 * The stripped form: the text after the last `assistantfinal` is the answer. Without one, or with another
 * analysis or commentary message after it (the model was reasoning again, and nothing ends a stripped message),
 * the output ended in reasoning and there is no answer.
 */
function splitStrippedHarmony(text: string, start: number): Split {
  const last = text.lastIndexOf(HARMONY.stripped.final);
  if (last < start) return { answer: '', reasoning: [text.slice(start)], unclosed: true };
  const answer = text.slice(last + HARMONY.stripped.final.length);
  if (STRIPPED_REOPENED.test(answer)) return { answer: '', reasoning: [text.slice(start)], unclosed: true };
  return { answer, reasoning: [text.slice(start, last)], unclosed: false };
}

const BUILT_IN = compile(REASONING_CHANNELS);
/** Readers with a user's extra delimiters, by their list; a run has one or two such lists. */
const withExtra = new Map<string, Reader>();

function readerFor(extra: readonly ReasoningDelimiter[]): Reader {
  if (extra.length === 0) return BUILT_IN;
  const key = JSON.stringify(extra.map((d) => [d.open, d.close]));
  let reader = withExtra.get(key);
  if (reader === undefined) {
    reader = compile([...REASONING_CHANNELS, ...extra]);
    withExtra.set(key, reader);
  }
  return reader;
}

/**
 * Harmony first (its channels hold whole messages), then the tagged blocks of the table and the user's extra
 * delimiters, inside whatever Harmony left as the answer.
 */
function splitReasoning(text: string, extra: readonly ReasoningDelimiter[]): Split {
  const reader = readerFor(extra);
  let outer: Split | null = null;
  if (text.includes(HARMONY.channel)) outer = splitHarmony(text);
  else if (mayBeStrippedHarmony(text)) {
    const visible = text.replace(ZERO_WIDTH, '');
    const stripped = STRIPPED_HARMONY.exec(visible);
    if (stripped !== null) outer = splitStrippedHarmony(visible, stripped[0].length);
  }
  if (outer === null) return splitTagged(reader, text);
  const inner = splitTagged(reader, outer.answer);
  return {
    answer: inner.answer,
    reasoning: [...outer.reasoning, ...inner.reasoning],
    unclosed: outer.unclosed || inner.unclosed,
  };
}

/**
 * The two channels of a response. `providerReasoning` is what an API returned beside the content
 * (`reasoning_content`, `reasoning`); `extraDelimiters` are the user's, added to the table. With an unclosed
 * block the answer is empty: whatever came before the block was not the final answer, and a grader must never
 * read one into a response that ended mid-thought.
 */
export function readResponse(
  text: string,
  providerReasoning?: string | null,
  extraDelimiters: readonly ReasoningDelimiter[] = [],
): ResponseChannels {
  const inline = splitReasoning(text, extraDelimiters);
  const sources: ResponseChannels['sources'] = [];
  const parts: string[] = [];
  if (providerReasoning != null && providerReasoning.trim() !== '') {
    sources.push('provider');
    parts.push(providerReasoning);
  }
  if (inline.reasoning.length > 0) {
    sources.push('inline');
    parts.push(...inline.reasoning);
  }
  return {
    answer: inline.unclosed ? '' : normalizeWhitespace(normalizeCompatibility(stripMarkupComments(inline.answer))),
    reasoning: parts.join('\n'),
    sources,
    unclosed: inline.unclosed,
  };
}
