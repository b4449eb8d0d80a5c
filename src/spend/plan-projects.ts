import { UsageError } from '../errors.js';
import { withSubject } from '../vitest/names.js';

/** A project of one subject: what it runs (`base`, e.g. `d2`) and its name in the run (`d2@<label>`, or `d2`). */
export interface SelectedProject {
  base: string;
  name: string;
}

/** A label pattern as Vitest's project filter reads it: `*` is any run of characters, case does not matter. */
function labelPattern(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`, 'i');
}

/**
 * The projects each subject runs, in the run's subject order, as `run --project` selects them. With one subject
 * (label null) the names are the projects, as written. With several, a plain name (`d2`) is that project for every
 * subject (`d2@<label>` each), and `<project>@<label pattern>` (`d2@gpt-4o-mini`, `d2@*`) it for the subjects whose
 * label matches; a pattern that matches no subject is a usage error, as the run would match no project.
 */
export function selectProjects(names: readonly string[], labels: readonly (string | null)[]): SelectedProject[][] {
  if (labels.length === 1 && labels[0] === null) return [names.map((name) => ({ base: name, name }))];
  const matched = new Set<string>();
  const selected = labels.map((label) => {
    const projects = new Map<string, SelectedProject>();
    for (const name of names) {
      const at = name.indexOf('@');
      const base = at < 0 ? name : name.slice(0, at);
      if (base === '') throw new UsageError(`--project: '${name}' names no project before its '@'`);
      if (at >= 0 && !labelPattern(name.slice(at + 1)).test(label ?? '')) continue;
      matched.add(name);
      const full = withSubject(base, label ?? undefined);
      if (!projects.has(full)) projects.set(full, { base, name: full });
    }
    return [...projects.values()];
  });
  const unmatched = names.filter((name) => !matched.has(name));
  if (unmatched.length > 0) {
    throw new UsageError(
      `--project: '${unmatched.join(', ')}' matches no subject of the run (its labels: ${labels.join(', ')})`,
    );
  }
  return selected;
}
