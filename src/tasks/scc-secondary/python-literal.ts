/**
 * A subset of Python's `ast.literal_eval`, the second chance of the authors' `extract_json_object`: dicts,
 * lists, tuples, single- or double-quoted strings (common escapes), ints (underscores, unary sign), floats,
 * True / False / None, trailing commas. Sets, bytes, complex numbers, prefixed and implicitly concatenated
 * strings are refused (the candidate then stays unparsed). One left-to-right pass; nesting capped at 200.
 */
export type PyValue = null | boolean | number | string | PyValue[] | { [key: string]: PyValue };

const MAX_DEPTH = 200;
const SIMPLE_ESCAPES: Record<string, string> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  n: '\n',
  t: '\t',
  r: '\r',
  b: '\b',
  f: '\f',
  v: '\v',
  a: '\x07',
  '0': '\0',
  '\n': '',
};
const NUMBER = /^[+-]?(?:\d(?:_?\d)*(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?/;

class LiteralError extends Error {}

export function parsePythonLiteral(text: string): PyValue {
  let i = 0;
  const fail = (what: string): never => {
    throw new LiteralError(`${what} at ${i}`);
  };
  const skip = () => {
    while (i < text.length && /[ \t\r\n]/.test(text[i])) i++;
  };
  const string = (): string => {
    const quote = text[i++];
    let out = '';
    while (i < text.length && text[i] !== quote) {
      if (text[i] === '\n') fail('newline in string');
      if (text[i] !== '\\') {
        out += text[i++];
        continue;
      }
      const esc = text[i + 1];
      if (esc === undefined) fail('dangling escape');
      if (esc in SIMPLE_ESCAPES) {
        out += SIMPLE_ESCAPES[esc];
        i += 2;
      } else if (esc === 'x' || esc === 'u' || esc === 'U') {
        const width = esc === 'x' ? 2 : esc === 'u' ? 4 : 8;
        const hex = text.slice(i + 2, i + 2 + width);
        if (!new RegExp(`^[0-9a-fA-F]{${width}}$`).test(hex)) fail('bad hex escape');
        const code = Number.parseInt(hex, 16);
        if (code > 0x10ffff) fail('code point out of range');
        out += String.fromCodePoint(code);
        i += 2 + width;
      } else {
        out += `\\${esc}`; // Python keeps unknown escapes verbatim
        i += 2;
      }
    }
    if (text[i] !== quote) fail('unterminated string');
    i++;
    return out;
  };
  const sequence = (close: string, depth: number): PyValue[] => {
    const items: PyValue[] = [];
    i++;
    skip();
    while (text[i] !== close) {
      items.push(value(depth + 1));
      skip();
      if (text[i] === ',') {
        i++;
        skip();
      } else if (text[i] !== close) fail(`expected , or ${close}`);
    }
    i++;
    return items;
  };
  const dict = (depth: number): { [key: string]: PyValue } => {
    const out: { [key: string]: PyValue } = {};
    i++;
    skip();
    while (text[i] !== '}') {
      const key = value(depth + 1);
      if (key !== null && typeof key === 'object') fail('unhashable key');
      skip();
      if (text[i] !== ':') fail('expected :');
      i++;
      const name = key === null ? 'None' : typeof key === 'boolean' ? (key ? 'True' : 'False') : String(key);
      // defineProperty: a key named __proto__ stays an own property, as JSON.parse keeps it.
      Object.defineProperty(out, name, {
        value: value(depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
      skip();
      if (text[i] === ',') {
        i++;
        skip();
      } else if (text[i] !== '}') fail('expected , or }');
    }
    i++;
    return out;
  };
  const value = (depth: number): PyValue => {
    if (depth > MAX_DEPTH) fail('nesting too deep');
    skip();
    const c = text[i];
    if (c === '{') return dict(depth);
    if (c === '[') return sequence(']', depth);
    if (c === '(') return sequence(')', depth);
    if (c === "'" || c === '"') {
      if (text.startsWith(c.repeat(3), i)) fail('triple-quoted strings are not supported');
      return string();
    }
    for (const [word, literal] of [
      ['True', true],
      ['False', false],
      ['None', null],
    ] as const) {
      if (text.startsWith(word, i) && !/\w/.test(text[i + word.length] ?? '')) {
        i += word.length;
        return literal;
      }
    }
    const match = NUMBER.exec(text.slice(i, i + 400));
    if (!match || /[\w.]/.test(text[i + match[0].length] ?? '')) fail('unexpected token');
    const raw = (match as RegExpExecArray)[0];
    i += raw.length;
    return Number(raw.replaceAll('_', ''));
  };
  const result = value(0);
  skip();
  if (i !== text.length) fail('trailing text');
  return result;
}

/** The literal as a dict, or null when it is not one or Python would refuse it. */
export function pythonDictLiteral(text: string): { [key: string]: PyValue } | null {
  try {
    const value = parsePythonLiteral(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : null;
  } catch (error) {
    if (error instanceof LiteralError || error instanceof RangeError) return null;
    throw error;
  }
}
