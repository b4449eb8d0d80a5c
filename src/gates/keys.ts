import { nearestNames } from '../config/nearest-names.js';
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
