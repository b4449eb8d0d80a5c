import { availableTasks } from './registry.js';
import type { AnyTaskPlugin } from './task.js';

/**
 * The names a run gives its projects and cells, derived from the registered task plugins (each plugin declares
 * its project and level axis): the Vitest glue names its tests with them and the planner its units, so a plan's
 * rows read as the run's test names. Pure: no Vitest here (src/vitest/names.ts keeps what reads a Vitest test).
 */

/**
 * A name's head with the subject's label, in a run with several subjects (`d2` → `d2@gpt-4o-mini`, the way the
 * project is named); unchanged with one subject (no label).
 */
export const withSubject = (head: string, label: string | undefined): string => (label ? `${head}@${label}` : head);

/**
 * Unique, human-readable cell names: `d2 · N=15`, `hanoi · L3`, `count · len=32`; with a subject label
 * (several subjects in the run) `d2@gpt-4o-mini · N=15`.
 */
export function cellName(task: AnyTaskPlugin, level: number, variant?: string, subjectLabel?: string): string {
  const axis =
    task.levels.kind === 'depth' ? `N=${level}` : task.levels.kind === 'level' ? `L${level}` : `len=${level}`;
  const suffix = variant && variant !== task.variants[0] ? ` · ${variant}` : '';
  return `${withSubject(task.id, subjectLabel)} · ${axis}${suffix}`;
}

/** The span of a sweep for its fit test's name: `N=5…50`, `L1…L6`. */
export function sweepSpan(task: AnyTaskPlugin, levels: readonly number[]): string {
  const first = levels[0];
  const last = levels[levels.length - 1];
  if (task.levels.kind === 'depth') return `N=${first}…${last}`;
  if (task.levels.kind === 'level') return `L${first}…L${last}`;
  return `len=${first}…${last}`;
}

/** The project a task's cells belong to, as the plugin declares it. */
export const projectOf = (task: AnyTaskPlugin): string => task.project;

/** The standard projects, derived from the registered task plugins: d1, d2, d3, puzzles, scc. */
export const standardProjects = (): string[] => [...new Set(availableTasks().map(projectOf))];

/**
 * The name the plugin gave a project, as records, gates and the manifest use it: Vitest 5 names a project that a
 * container configuration declares `<container> (<name>)` (a package's vitest.config.ts among the workspace root's
 * `projects: ['packages/*']`: `bench (d2)`); Vitest 4.1 keeps the name. Only a name the plugin declared is taken
 * out of its parentheses (`declared`: the benchmark projects, `d2` or `d2@<label>`).
 */
export function declaredProjectName(name: string, declared: readonly string[] | undefined): string {
  const inner = /^.+ \(([^()]+)\)$/.exec(name)?.[1];
  if (inner === undefined || !declared) return name;
  return declared.some((d) => d === inner || d.startsWith(`${inner}@`)) ? inner : name;
}
