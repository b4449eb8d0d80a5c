/**
 * The authors' parser: `re.findall(r'-?\d+', text.strip())[-1]` → `int`, or null. Python's `\d` is
 * Unicode (category Nd), so full-width and Arabic-Indic digits count; `int()` refuses more than 4,300
 * digits (CPython ≥ 3.11). Read from the end: what precedes the last integer is never scanned.
 */

/** CPython's default `sys.get_int_max_str_digits()`. */
export const MAX_INT_DIGITS = 4300;

const ND = /\p{Nd}/u;
const zeroCache = new Map<number, number>();

const isDecimalDigit = (codePoint: number): boolean =>
  (codePoint >= 48 && codePoint <= 57) || (codePoint > 127 && ND.test(String.fromCodePoint(codePoint)));

/** Nd characters come in contiguous runs of whole 0–9 blocks; the value is the offset within its block. */
function digitValue(codePoint: number): number {
  if (codePoint >= 48 && codePoint <= 57) return codePoint - 48;
  const cached = zeroCache.get(codePoint);
  if (cached !== undefined) return codePoint - cached;
  let start = codePoint;
  while (start - 1 >= 0 && isDecimalDigit(start - 1)) start--;
  const zero = codePoint - ((codePoint - start) % 10);
  for (let d = 0; d < 10; d++) zeroCache.set(zero + d, zero);
  return codePoint - zero;
}

export type LastIntegerScan =
  | { kind: 'none' }
  /** More than MAX_INT_DIGITS digits: CPython's int() raises, the authors' parser returns None. */
  | { kind: 'too-many-digits'; digits: number }
  | { kind: 'integer'; value: bigint; digits: number };

/**
 * The code point that ends at `end` (a surrogate pair, or one code unit: a lone surrogate is a code point of its
 * own, as in a left-to-right `for…of`), and how many code units it takes.
 */
function codePointBefore(text: string, end: number): { codePoint: number; length: 1 | 2 } {
  const low = text.charCodeAt(end - 1);
  if (low >= 0xdc00 && low <= 0xdfff && end >= 2) {
    const high = text.charCodeAt(end - 2);
    if (high >= 0xd800 && high <= 0xdbff)
      return { codePoint: (high - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000, length: 2 };
  }
  return { codePoint: low, length: 1 };
}

/** Index just after the last Nd digit of the text, or −1 when there is none. */
export function lastDigitEnd(text: string): number {
  for (let end = text.length; end > 0; ) {
    const { codePoint, length } = codePointBefore(text, end);
    if (isDecimalDigit(codePoint)) return end;
    end -= length;
  }
  return -1;
}

/** Finds the last `-?\d+` match: the last maximal run of Nd digits, negative iff a '-' precedes it. */
export function scanLastInteger(text: string): LastIntegerScan {
  const lastEnd = lastDigitEnd(text);
  if (lastEnd < 0) return { kind: 'none' };
  let lastStart = lastEnd;
  while (lastStart > 0) {
    const { codePoint, length } = codePointBefore(text, lastStart);
    if (!isDecimalDigit(codePoint)) break;
    lastStart -= length;
  }
  const digits = [...text.slice(lastStart, lastEnd)];
  if (digits.length > MAX_INT_DIGITS) return { kind: 'too-many-digits', digits: digits.length };
  let value = 0n;
  if (digits.length <= 15) {
    let small = 0;
    for (const d of digits) small = small * 10 + digitValue(d.codePointAt(0) ?? 48);
    value = BigInt(small);
  } else {
    value = BigInt(digits.map((d) => digitValue(d.codePointAt(0) ?? 48)).join(''));
  }
  const negative = lastStart > 0 && text[lastStart - 1] === '-';
  return { kind: 'integer', value: negative ? -value : value, digits: digits.length };
}

/**
 * A count written with thousands separators at the end of the text's last number (`16,384`, `16.384`, `16'384`,
 * `16_384`: groups of exactly three digits after the first, one separator throughout): its value, or null when the
 * last number is not so written. The authors' parser reads `16,384` as 384; the 'final' reading reads 16384.
 */
export function parseGroupedCount(text: string): bigint | null {
  const end = lastDigitEnd(text);
  if (end < 0) return null;
  const grouped = GROUPED.exec(text.slice(Math.max(0, end - 64), end));
  return grouped === null ? null : BigInt(grouped[0].replace(/[^0-9]/g, ''));
}

const GROUPED = /(?<![0-9,.'’_])[0-9]{1,3}([,.'’_])[0-9]{3}(?:\1[0-9]{3})*$/;

/** The authors' `parse_integer`: the last integer in the text as a BigInt, or null. */
export function parseLastInteger(text: string): bigint | null {
  const scan = scanLastInteger(text);
  return scan.kind === 'integer' ? scan.value : null;
}

/** √(Number.MAX_VALUE): beyond it CPython's `float(error * error)` raises OverflowError. */
const SQUARE_OVERFLOW = Math.sqrt(Number.MAX_VALUE);

export type CountScore =
  | { kind: 'unparsed' }
  /** The authors' run_trial raises OverflowError on the squared error; the trial becomes an `error`. */
  | { kind: 'overflow'; parsed: bigint }
  | { kind: 'scored'; parsed: number; exact: boolean; relativeError: number };

/** Scores a parsed value against the target as the authors do (|parsed − expected| / expected). */
export function scoreCount(parsed: bigint | null, expected: number): CountScore {
  if (parsed === null) return { kind: 'unparsed' };
  const diff = parsed - BigInt(expected);
  const absDiff = Number(diff < 0n ? -diff : diff);
  if (!(absDiff * absDiff < Number.POSITIVE_INFINITY) || absDiff > SQUARE_OVERFLOW) return { kind: 'overflow', parsed };
  return { kind: 'scored', parsed: Number(parsed), exact: diff === 0n, relativeError: absDiff / expected };
}
