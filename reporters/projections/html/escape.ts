const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML element content and double- or single-quoted attributes. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ENTITIES[c]);

/** One table: header cells and body rows of already-escaped HTML fragments. */
export function htmlTable(head: readonly string[], rows: ReadonlyArray<readonly string[]>, className = ''): string {
  const th = head.map((h) => `<th>${h}</th>`).join('');
  const body = rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('\n');
  return `<table${className ? ` class="${className}"` : ''}><thead><tr>${th}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}
