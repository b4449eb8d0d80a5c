import type { Plugin } from 'vitest/config';
import { patternRegExp } from '../vitest/subject-filter.js';
import { SUBJECTS_KEY } from '../vitest/subject-keys.js';

/**
 * The names an inline project answers to: its own, and `<name>@<label>` for each subject of a benchmark project
 * that runs several (src/vitest/declare.ts).
 */
function namesOf(project: unknown): string[] | undefined {
  const name = fixedName(project);
  if (name === undefined) return undefined;
  const provide = (project as { test?: { provide?: Record<string, unknown> } }).test?.provide;
  const subjects = provide?.[SUBJECTS_KEY];
  const labels = Array.isArray(subjects) ? subjects.map((s) => (s as { label?: unknown }).label) : [];
  return [name, ...labels.filter((l): l is string => typeof l === 'string').map((l) => `${name}@${l}`)];
}

/** The name an inline project declares for itself, when it is a fixed one (no browser instances to name others). */
function fixedName(project: unknown): string | undefined {
  if (typeof project !== 'object' || project === null) return undefined;
  const test = (project as { test?: { name?: unknown; browser?: unknown } }).test;
  if (test === undefined || test.browser !== undefined) return undefined;
  const name = test.name;
  if (typeof name === 'string') return name;
  if (typeof name === 'object' && name !== null && typeof (name as { label?: unknown }).label === 'string') {
    return (name as { label: string }).label;
  }
  return undefined;
}

/**
 * Whether an inline project may be selected by the `--project` patterns: one whose fixed name none of them matches
 * is not; anything else (a path, a glob, a project named only once resolved) is kept for Vitest to decide.
 */
export function maySelect(project: unknown, patterns: readonly string[]): boolean {
  const names = namesOf(project);
  return names === undefined || names.some((name) => patterns.some((pattern) => patternRegExp(pattern).test(name)));
}

/**
 * Drops the inline projects the run's `--project` filter leaves out before Vitest starts them. Vitest starts a Vite
 * server for every inline project and only then filters by name; a project with `extends: true` loads the root
 * configuration file once more through Vite's module runner to do so (in this repository, our own `unit` project:
 * the plugin's whole TypeScript graph transformed again for a project that never runs). Runs after every other
 * plugin's `config` hook, so the projects the ceilingbench plugin adds are filtered too.
 */
export function selectedProjectsOnly(patterns: readonly string[]): Plugin {
  return {
    name: 'ceilingbench:selected-projects',
    enforce: 'post',
    config(config) {
      const projects = config.test?.projects;
      if (patterns.length === 0 || !Array.isArray(projects)) return;
      const kept = projects.filter((p) => maySelect(p, patterns));
      // none left: Vitest's own filter names the problem ("No projects matched the filter"), as before
      if (kept.length > 0) config.test = { ...config.test, projects: kept };
    },
  };
}
