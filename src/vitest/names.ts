import { availableTasks } from '../tasks/registry.js';
import type { AnyTaskPlugin } from '../tasks/task.js';

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

/** The Vitest project a task's cells belong to, as the plugin declares it. */
export const projectOf = (task: AnyTaskPlugin): string => task.project;

/** The standard Vitest projects, derived from the registered task plugins: d1, d2, d3, puzzles, scc. */
export const standardProjects = (): string[] => [...new Set(availableTasks().map(projectOf))];

/**
 * The project a test's records name: its Vitest project without a subject label (`d2@gpt-4o` → `d2`, the user's
 * `benchmarks` → `benchmarks`), so that a user's own d2 sweep and the standard d2 grid are two records, never one
 * key twice; the task's standard project outside a named Vitest project.
 */
export const recordProjectOf = (test: { file: { projectName?: string } }, fallback: string): string =>
  (test.file.projectName || fallback).replace(/@[^@]*$/, '');
