import { sha512 } from '../rng/sha512.js';

/**
 * A subject's label: the short name it carries in Vitest project names (`d2@<label>`) and test names when a run
 * has several subjects. Lower case `[a-z0-9._-]` only, so that a label is safe in a file name, in a `--project`
 * glob (Vitest's project filter treats `*` as the wildcard, a leading `!` as negation, and matches without
 * regard to case) and in `run --project`'s comma list; never `@`, so `<project>@<label>` splits at its one `@`.
 *
 *   openai:gpt-4o-mini              gpt-4o-mini
 *   openai:meta-llama/Llama-3-8B    meta-llama-llama-3-8b
 *   sim:retention?p=0.95            sim-retention-p0.95
 *   sim:retention?p=0.9&seed=7      sim-retention-p0.9-seed7
 *   oracle                          oracle
 *   replay:logs/gpt4.jsonl#gpt-4    replay-gpt4-gpt-4
 *   module:./subjects/agent.ts      agent
 *   module:./subjects.ts#router     subjects-router
 *   function:support-agent          support-agent
 *
 * It depends on the spec string only (the query in its written order, not the parsed, defaulted parameters).
 */
export function subjectLabel(spec: string): string {
  const text = spec.trim();
  const colon = text.indexOf(':');
  const scheme = colon < 0 ? text : text.slice(0, colon);
  const rest = colon < 0 ? '' : text.slice(colon + 1);
  let raw: string;
  if (scheme === 'openai' || scheme === 'function') raw = rest;
  else if (scheme === 'sim') raw = `sim-${rest.replace(/[?&]/g, '-').replace(/=/g, '')}`;
  else if (scheme === 'replay') {
    const hash = rest.lastIndexOf('#');
    const path = hash < 0 ? rest : rest.slice(0, hash);
    const file = (path.split(/[\\/]/).pop() ?? '').replace(/\.[^.]*$/, '');
    raw = `replay-${file}${hash < 0 ? '' : `-${rest.slice(hash + 1)}`}`;
  } else if (scheme === 'module') {
    // the file and export, never the module's code; the subject's own `id` names it in reports (identity.model)
    const hash = rest.lastIndexOf('#');
    const path = hash < 0 ? rest : rest.slice(0, hash);
    const name = hash < 0 ? 'default' : rest.slice(hash + 1);
    const file = (path.split(/[\\/]/).pop() ?? '').replace(/\.[^.]*$/, '');
    raw = name === 'default' ? file : `${file}-${name}`;
  } else raw = text;
  return sanitize(raw) || 'subject';
}

/** Anything outside `[a-z0-9._-]` becomes `-`; runs of `-` collapse; no `-` or `.` at either end. */
function sanitize(raw: string): string {
  return raw
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '');
}

const fingerprint = (spec: string, hexDigits: number): string =>
  [...sha512(new TextEncoder().encode(spec))]
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('')
    .slice(0, hexDigits);

/**
 * The labels of a run's subjects, in the list's order, unique within the run: every subject whose label
 * another one shares gets `-<the first hex digits of the SHA-512 of its spec>` appended (8 digits, more while a
 * clash remains). A label depends on the set of specs, never on their order. The specs must be distinct.
 */
export function subjectLabels(specs: readonly string[]): string[] {
  const distinct = new Set(specs.map((s) => s.trim()));
  if (distinct.size !== specs.length) throw new RangeError('subjectLabels: a subject is listed twice');
  const base = specs.map(subjectLabel);
  const labels = [...base];
  for (let digits = 8; digits <= 128; digits *= 2) {
    const count = new Map<string, number>();
    for (const label of labels) count.set(label, (count.get(label) ?? 0) + 1);
    const clashing = labels.map((label) => (count.get(label) ?? 0) > 1);
    if (!clashing.some(Boolean)) return labels;
    for (let i = 0; i < labels.length; i++) {
      if (clashing[i] || labels[i] !== base[i]) labels[i] = `${base[i]}-${fingerprint(specs[i].trim(), digits)}`;
    }
  }
  throw new RangeError('subjectLabels: labels still clash after the full fingerprint');
}
