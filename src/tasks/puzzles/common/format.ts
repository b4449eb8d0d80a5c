/** A bounded one-line rendering of a model-supplied value for issue messages (never throws). */
export function shortJson(value: unknown, max = 60): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

/** A JSON list rendered one entry per line, as canonical responses write their answer blocks. */
export function jsonLines(entries: readonly unknown[]): string {
  if (entries.length === 0) return '[]';
  return `[\n${entries.map((entry) => `  ${JSON.stringify(entry)}`).join(',\n')}\n]`;
}
