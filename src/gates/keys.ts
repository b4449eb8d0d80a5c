import type { ProjectGates } from '../config/schema.js';

/**
 * Whether a Vitest project belongs to a gate's key: the project itself, or one of its per-subject projects
 * (`d2@<label>`) in a run with several subjects.
 */
export const gateKeyCovers = (key: string, project: string): boolean =>
  project === key || project.startsWith(`${key}@`);

/**
 * The gates that apply to a Vitest project: those keyed by its name and, for a per-subject project
 * `d2@<label>`, those keyed by its standard project `d2` — every subject's — with the `d2@<label>` key's
 * value winning gate by gate.
 */
export function gatesFor(
  gates: Readonly<Record<string, ProjectGates>>,
  vitestProject: string,
): ProjectGates | undefined {
  const at = vitestProject.lastIndexOf('@');
  const shared = at > 0 ? gates[vitestProject.slice(0, at)] : undefined;
  const own = gates[vitestProject];
  if (!shared) return own;
  return own ? { ...shared, ...own } : shared;
}

/** Edit distance (insertions, deletions, substitutions), for the names a mistyped key could mean. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row.push(Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1)));
    previous = row;
  }
  return previous[b.length];
}

/** The known names a key could mean: the same up to case, else those within two edits, the closest first. */
export function nearestNames(key: string, known: readonly string[]): string[] {
  const sameButCase = known.filter((name) => name.toLowerCase() === key.toLowerCase());
  if (sameButCase.length > 0) return sameButCase;
  const scored = known
    .map((name) => ({ name, d: name.toLowerCase() === key.toLowerCase() ? 0 : distance(key, name) }))
    .filter((x) => x.d <= Math.max(2, Math.floor(key.length / 3)))
    .sort((a, b) => a.d - b.d || a.name.localeCompare(b.name));
  return scored.map((x) => x.name);
}

/**
 * One line per gate key that names no project of the configuration (filtered out or not): a key is a Vitest
 * project name, or a standard project whose per-subject projects (`d2@<label>`) are known.
 */
export function unknownGateKeys(gates: Readonly<Record<string, ProjectGates>>, known: readonly string[]): string[] {
  return Object.keys(gates)
    .filter((key) => !known.some((project) => gateKeyCovers(key, project)))
    .map((key) => {
      const near = nearestNames(key, [...new Set(known.map((p) => p.replace(/@[^@]*$/, '')))]);
      const hint = near.length > 0 ? `did you mean '${near.join("', '")}'?` : 'check the key';
      return (
        `gates: '${key}' names no project of this configuration (projects: ${[...new Set(known)].sort().join(', ')}) — ` +
        `${hint} Gates are keyed by Vitest project name`
      );
    });
}
