/**
 * A string stand-in that counts the characters a text scanner reads, so a test can state "linear in the text
 * length" as a deterministic operation count instead of a wall-clock threshold. Index reads and `charCodeAt`
 * count one each; the native searches count the characters they pass over; `slice` counts what it copies.
 * Any other method is counted as a full pass over the text, so an unforeseen use can only overstate the work.
 */
export interface CountedText {
  /** Pass this where the scanner expects a string. */
  text: string;
  /** Characters read so far. */
  reads(): number;
}

export function countedText(source: string): CountedText {
  let reads = 0;
  const methods: Record<string, (...args: never[]) => unknown> = {
    charCodeAt: (i: number) => {
      reads++;
      return source.charCodeAt(i);
    },
    lastIndexOf: (needle: string, from = source.length) => {
      const at = source.lastIndexOf(needle, from);
      reads += Math.min(from, source.length) - Math.max(at, 0) + needle.length;
      return at;
    },
    indexOf: (needle: string, from = 0) => {
      const at = source.indexOf(needle, from);
      reads += (at < 0 ? source.length : at) - from + needle.length;
      return at;
    },
    startsWith: (prefix: string, at = 0) => {
      reads += prefix.length;
      return source.startsWith(prefix, at);
    },
    slice: (start?: number, end?: number) => {
      const copy = source.slice(start, end);
      reads += copy.length;
      return copy;
    },
  };
  const proxy = new Proxy(new String(source), {
    get(target, key) {
      if (key === 'length') return source.length;
      if (typeof key === 'string' && /^\d+$/.test(key)) {
        reads++;
        return source[Number(key)];
      }
      if (typeof key === 'string' && key in methods) return methods[key];
      const value = Reflect.get(target, key);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        reads += source.length;
        return (value as (...a: unknown[]) => unknown).apply(source, args);
      };
    },
  });
  return { text: proxy as unknown as string, reads: () => reads };
}
