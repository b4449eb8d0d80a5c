import { nearestNames } from '../config/nearest-names.js';
import { UsageError } from '../errors.js';
import { withSubject } from '../tasks/project-names.js';

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

/** A project pattern as Vitest's `--project` reads it: `*` any run of characters, a leading `!` all but, any case. */
function projectPattern(pattern: string): RegExp {
  const negated = pattern.startsWith('!');
  const body = (negated ? pattern.slice(1) : pattern)
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(negated ? `^(?!${body}$)` : `^${body}$`, 'i');
}

/** The projects a `--project` name selects, as Vitest matches it (its part after `@` kept); none: empty. */
export function matchProject(name: string, known: readonly string[]): string[] {
  const at = name.indexOf('@');
  const pattern = projectPattern(at < 0 ? name : name.slice(0, at));
  const suffix = at < 0 ? '' : name.slice(at);
  return known.filter((project) => pattern.test(project)).map((project) => project + suffix);
}

/**
 * The `--project` names with each one's project part (before its `@`) read against the projects there are, as
 * Vitest matches them: a glob becomes the projects it matches, a name in another case the project's spelling. A
 * name that matches no project is a usage error naming the projects and the nearest, as the run would match none.
 */
export function matchProjectNames(names: readonly string[], known: readonly string[]): string[] {
  const matched = names.flatMap((name) => {
    const hits = matchProject(name, known);
    if (hits.length > 0) return hits;
    const base = name.split('@')[0];
    // a glob is no misspelt name
    const near = /[*!]/.test(base) ? [] : nearestNames(base, known);
    const hint = near.length > 0 ? `did you mean '${near.join("', '")}'?` : "name one of them, or 'all'";
    throw new UsageError(`--project: '${name}' matches no project (projects: ${known.join(', ')}) — ${hint}`);
  });
  return [...new Set(matched)];
}
