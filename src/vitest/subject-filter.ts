import { withSubject } from '../tasks/project-names.js';

/** A `--project` pattern as Vitest reads it: `*` any run of characters, a leading `!` negates, case-insensitive. */
export function patternRegExp(pattern: string): RegExp {
  const negated = pattern.startsWith('!');
  const body = `${(negated ? pattern.slice(1) : pattern)
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*')}$`;
  return new RegExp(`^${negated ? `(?!${body})` : body}`, 'i');
}

/** Whether a name is selected by the `--project` patterns (any of them; none: every name). */
export const matchesProjectPatterns = (name: string, patterns: readonly string[]): boolean =>
  patterns.length === 0 || patterns.some((pattern) => patternRegExp(pattern).test(name));

/**
 * The labels of a benchmark project's subjects that the `--project` patterns select. Several subjects run inside
 * one Vitest project (`d2`), whose records, gates and reports still name `d2@<label>`: a pattern with an `@`
 * (`d2@gpt-4o`, `*@gpt-*`, `!d2@sim*`) selects the subjects whose `<project>@<label>` it matches; a project named
 * by a pattern without one (`d2`, `d*`) runs every subject that no `@` pattern narrowed. No pattern: every subject.
 */
export function selectedSubjects(project: string, labels: readonly string[], patterns: readonly string[]): string[] {
  if (patterns.length === 0) return [...labels];
  const scoped = patterns.filter((p) => p.includes('@'));
  const byScoped = labels.filter((label) => matchesProjectPatterns(withSubject(project, label), scoped));
  if (scoped.length > 0 && byScoped.length > 0) return byScoped;
  const plain = patterns.filter((p) => !p.includes('@'));
  return plain.length > 0 && matchesProjectPatterns(project, plain) ? [...labels] : [];
}
