/**
 * A model response as two channels: the reasoning (never graded) and the answer text a task parses.
 * Every registered task grades through `readResponse` (see `withResponseChannels`), so a family never
 * sees a think block, a BOM or a CRLF. Pure and linear in the text length.
 */

export interface ResponseChannels {
  /** What the task grades: the text outside reasoning blocks, with whitespace normalised. */
  answer: string;
  /** The reasoning set aside, in order: the provider's field first, then inline blocks. */
  reasoning: string;
  /** Where reasoning came from. */
  sources: Array<'provider' | 'inline'>;
  /** An inline reasoning block was opened and never closed: the output ended while still thinking. */
  unclosed: boolean;
}

/** Characters that render as a space but are not ASCII spaces (NBSP, figure/thin/narrow spaces, ideographic). */
const ODD_SPACES = /[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/g;
/** Byte-order marks and zero-width no-break spaces, wherever they occur. */
const BOMS = /\ufeff/g;

/**
 * Line endings, BOMs, odd spaces, trailing spaces and blank lines carry no answer: CRLF and CR become LF,
 * NBSP-like spaces become spaces, trailing horizontal whitespace and blank lines are dropped, and the
 * whole text is trimmed. No parser may depend on what this removes.
 */
export function normalizeWhitespace(text: string): string {
  const lines = text
    .replace(BOMS, '')
    .replace(ODD_SPACES, ' ')
    .split(/\r\n|\r|\n/);
  const kept: string[] = [];
  for (const line of lines) {
    const trimmed = line.trimEnd();
    if (trimmed !== '') kept.push(trimmed);
  }
  return kept.join('\n').trim();
}

/** Opening or closing tag of a reasoning block: `<think>`, `<thinking>`, `<reasoning>` (any case). */
const TAG = /<(\/?)(think|thinking|reasoning)\s*>/gi;

interface Tag {
  start: number;
  end: number;
  closing: boolean;
  name: string;
}

function nextTag(text: string, from: number): Tag | null {
  TAG.lastIndex = from;
  const m = TAG.exec(text);
  if (m === null) return null;
  return { start: m.index, end: m.index + m[0].length, closing: m[1] === '/', name: m[2].toLowerCase() };
}

/**
 * Splits inline reasoning from the answer. A block runs from an opening tag to the next closing tag of the
 * same name; an opening tag never closed makes the rest of the text reasoning (`unclosed`). A closing tag
 * before any opening tag ends a block whose opening tag was in the prompt (chat templates that pre-fill
 * `<think>`): the text before it is reasoning. Stray closing tags elsewhere are dropped.
 */
function splitInline(text: string): { answer: string; reasoning: string[]; unclosed: boolean } {
  const answer: string[] = [];
  const reasoning: string[] = [];
  let at = 0;
  let first = true;
  for (let tag = nextTag(text, 0); tag !== null; tag = nextTag(text, at)) {
    if (tag.closing) {
      if (first) reasoning.push(text.slice(0, tag.start));
      else answer.push(text.slice(at, tag.start));
      at = tag.end;
      first = false;
      continue;
    }
    first = false;
    answer.push(text.slice(at, tag.start));
    const close = findClosing(text, tag.end, tag.name);
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

function findClosing(text: string, from: number, name: string): Tag | null {
  for (let tag = nextTag(text, from); tag !== null; tag = nextTag(text, tag.end)) {
    if (tag.closing && tag.name === name) return tag;
  }
  return null;
}

/**
 * The two channels of a response. `providerReasoning` is what an API returned beside the content
 * (`reasoning_content`, `reasoning`). With an unclosed block the answer is empty: whatever came before the
 * block was not the final answer, and a grader must never read one into a response that ended mid-thought.
 */
export function readResponse(text: string, providerReasoning?: string | null): ResponseChannels {
  const inline = splitInline(text);
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
    answer: inline.unclosed ? '' : normalizeWhitespace(inline.answer),
    reasoning: parts.join('\n'),
    sources,
    unclosed: inline.unclosed,
  };
}
