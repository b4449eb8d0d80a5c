import fc from 'fast-check';
import { PyRandom } from '../../src/rng/index.js';
import { availableTasks } from '../../src/tasks/registry.js';
import type { AnyTaskPlugin, TaskInstance } from '../../src/tasks/task.js';

/**
 * Hostile model outputs for parser tests: seeded builders of large texts (for the linear-time checks) and
 * fast-check arbitraries (for "never throws, always classified"). The shapes target what breaks parsers:
 * backtracking regexes, deep recursion, quadratic rescans, and formats that almost match.
 */

export interface HostileSubject {
  task: AnyTaskPlugin;
  instance: TaskInstance;
  canonical: string;
}

/** One generated instance per registered task, at its second level (small but not trivial). */
export function hostileSubjects(): HostileSubject[] {
  return availableTasks().map((task) => {
    const level = task.levels.values[Math.min(1, task.levels.values.length - 1)];
    const seed = 20_251_129;
    const instance = task.generate(new PyRandom(seed), level, { seed, profile: task.profiles[0] });
    return { task, instance, canonical: task.canonicalResponse(instance) };
  });
}

/** Characters that stress text handling: astral symbols, combining marks, RTL, zero-width, non-ASCII digits. */
const NASTY_CHARS = [
  '𝟘',
  '١',
  '٣',
  '०',
  '５',
  '\u0301',
  '\u200b',
  '\u202e',
  '\ufeff',
  '\u0000',
  '\ud800',
  '😀',
  '👩‍👩‍👧',
  'ß',
  'İ',
  '\r',
  '\t',
  '\u2028',
];
const FORMAT_CHARS = '0123456789[](){},:;=-+*#|/\\ \n"\'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz→';

const randomStreams = new Map<string, string>();

/**
 * The first `length` characters of a seeded random stream over `alphabet` (no period; built once, grown on demand
 * in whole 64 Ki blocks, so that the many lengths just under 10 MB the tasks ask for share one build).
 */
function randomText(alphabet: string, length: number, seed: number): string {
  const id = `${seed}|${alphabet}`;
  const cached = randomStreams.get(id) ?? '';
  if (cached.length >= length) return cached.slice(0, length);
  const built = Math.ceil(length / 65_536) * 65_536;
  const rng = new PyRandom(seed);
  const chars = new Array<string>(built);
  for (let i = 0; i < built; i++) chars[i] = alphabet[rng.randbelow(alphabet.length)];
  const stream = chars.join('');
  randomStreams.set(id, stream);
  return stream.slice(0, length);
}

function unicodeNoiseBlock(length: number, seed: number): string {
  const rng = new PyRandom(seed);
  const parts: string[] = [];
  let size = 0;
  while (size < length) {
    const piece = rng.random() < 0.2 ? rng.choice(NASTY_CHARS) : FORMAT_CHARS[rng.randbelow(FORMAT_CHARS.length)];
    parts.push(piece);
    size += piece.length;
  }
  return parts.join('');
}

/** `block` repeated to exactly `size` UTF-16 units (a lone surrogate at the cut is fine: it is hostile too). */
export function fill(block: string, size: number): string {
  return block.repeat(Math.ceil(size / block.length)).slice(0, size);
}

/** The canonical answer up to its first bracket (its answer opener, e.g. `moves = `), plus `[`. */
function answerHead(canonical: string): string {
  const open = canonical.search(/[[{]/);
  const cut = open > 0 ? open : canonical.length;
  return `${canonical.slice(0, cut)}[`;
}

export type ShapeBuilder = (size: number, canonical: string) => string;

/** Large-input shapes, each a function of the target size (UTF-16 units) and the task's canonical answer. */
export const LARGE_SHAPES: Record<string, ShapeBuilder> = {
  /** Seeded random mix of format characters and nasty unicode. */
  'unicode-noise': (size) => fill(unicodeNoiseBlock(65_536, 10), size),
  /** One deep nest: `[[[[…]]]]` (recursive-descent parsers overflow the stack). */
  'nested-brackets': (size) => `${'['.repeat(Math.floor(size / 2))}${']'.repeat(Math.ceil(size / 2))}`,
  /** Opened and never closed (the release's lazy `\[\[.*?\]\]` goes quadratic on this). */
  'unclosed-headers': (size) => fill('Step 1: [[Step 2: [A=1, [AB:F, ', size),
  /** A valid-looking answer repeated: many steps, many answers, many keywords. */
  'canonical-repeated': (size, canonical) => fill(`${canonical}\n`, size),
  /** Backtracking bait: a long run of one class, then a character that makes the match fail at the end. */
  'redos-whitespace': (size) => `ANSWER${' '.repeat(size - 8)}!x`,
  'redos-digits': (size) => `Step ${'1'.repeat(size - 6)}!`,
  /**
   * The task's own answer opener (e.g. `moves = [`) and then a seeded, non-periodic stream of openers and
   * values that never closes (non-periodic, so that a degenerate-repetition check cannot short-circuit it).
   */
  'unclosed-answer': (size, canonical) => {
    const head = answerHead(canonical);
    return `${head}${randomText('[{,"0123456789 \n', Math.max(0, size - head.length), 11)}`.slice(0, size);
  },
  /** The task's answer opener repeated without a value (`moves = moves = …`): every candidate is a near miss. */
  'answer-spam': (size, canonical) => fill(`${answerHead(canonical).slice(0, -1)} `, size),
  /** Keyword spam: the first-match / last-match logic must not rescan from every occurrence. */
  'keyword-spam': (size) => fill('ANSWER: ANSWER:[ Step 1: moves = [[ Final answer: ', size),
};

/**
 * The shapes that cost the most per byte, for the 10 MB step: noise, unclosed step headers, unclosed answers
 * (hostile-output.test.ts grades them at 10 MB; bench/linearity-suite.ts times them).
 */
export const TEN_MB_SHAPES = ['unicode-noise', 'unclosed-headers', 'unclosed-answer'] as const;

/** Near-miss edits of a valid answer (fast-check shrinks towards the valid answer itself). */
type Edit =
  | { op: 'cut'; at: number }
  | { op: 'insert'; at: number; text: string }
  | { op: 'delete'; at: number; length: number }
  | { op: 'duplicate'; at: number; length: number }
  | { op: 'case'; upper: boolean }
  | { op: 'replace'; from: string; to: string };

const SWAPS = ['[', ']', '(', ')', ',', ':', '=', '\n', ' ', '0', '1', '9', '-', 'ANSWER', 'Step', '**'];

const editArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ op: fc.constant('cut' as const), at: fc.nat() }),
  fc.record({
    op: fc.constant('insert' as const),
    at: fc.nat(),
    text: fc.oneof(fc.string({ unit: 'binary', maxLength: 8 }), fc.constantFrom(...SWAPS, ...NASTY_CHARS)),
  }),
  fc.record({ op: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 12 }) }),
  fc.record({ op: fc.constant('duplicate' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ op: fc.constant('case' as const), upper: fc.boolean() }),
  fc.record({ op: fc.constant('replace' as const), from: fc.constantFrom(...SWAPS), to: fc.constantFrom(...SWAPS) }),
);

function applyEdit(text: string, edit: Edit): string {
  const at = text.length === 0 ? 0 : 'at' in edit ? edit.at % (text.length + 1) : 0;
  switch (edit.op) {
    case 'cut':
      return text.slice(0, at);
    case 'insert':
      return text.slice(0, at) + edit.text + text.slice(at);
    case 'delete':
      return text.slice(0, at) + text.slice(at + edit.length);
    case 'duplicate':
      return text.slice(0, at + edit.length) + text.slice(at, at + edit.length) + text.slice(at + edit.length);
    case 'case':
      return edit.upper ? text.toUpperCase() : text.toLowerCase();
    case 'replace':
      return text.split(edit.from).join(edit.to);
  }
}

export const nearMissArb = (canonical: string): fc.Arbitrary<string> =>
  fc.array(editArb, { minLength: 1, maxLength: 4 }).map((edits) => edits.reduce(applyEdit, canonical));

/** Brackets nested 1–5000 deep, mixed kinds, possibly unbalanced, around arbitrary content. */
export const nestedArb: fc.Arbitrary<string> = fc
  .record({
    depth: fc.integer({ min: 1, max: 5000 }),
    open: fc.constantFrom('[', '(', '{', '[[', '[A=', 'Step 1: ['),
    close: fc.constantFrom(']', ')', '}', ']]', ''),
    inner: fc.string({ maxLength: 20 }),
  })
  .map(({ depth, open, close, inner }) => open.repeat(depth) + inner + close.repeat(depth));

/** Long runs that make backtracking regexes explode, at 1–20k characters. */
export const redosArb: fc.Arbitrary<string> = fc
  .record({
    unit: fc.constantFrom(' ', '1', 'a', 'A', '\t', '-', '[', 'AB:', 'Step ', 'ANSWER ', '1,', ' \n'),
    count: fc.integer({ min: 1, max: 20_000 }),
    prefix: fc.constantFrom('', 'ANSWER:', 'Step 1:', 'Final answer:', 'moves = ', '[[', 'TRACE\n'),
    suffix: fc.constantFrom('', '!', 'x', ']', '\u0000', '='),
  })
  .map(({ unit, count, prefix, suffix }) => prefix + unit.repeat(count) + suffix);

/** Every kind of hostile text, for the never-throws property. */
export const hostileTextArb = (canonical: string): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string({ unit: 'binary', maxLength: 300 }),
    fc.string({ unit: 'grapheme', maxLength: 200 }),
    fc.string({ unit: fc.constantFrom(...FORMAT_CHARS.split(''), ...NASTY_CHARS), maxLength: 400 }),
    nearMissArb(canonical),
    nestedArb,
    redosArb,
  );
