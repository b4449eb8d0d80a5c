import { inject } from 'vitest';
import { RUN_CONFIG_KEY } from '../config/resolve.js';
import { declaredProjectName } from '../tasks/project-names.js';
/**
 * The project a test's records name: its Vitest project without a subject label (`d2@gpt-4o` → `d2`, the user's
 * `benchmarks` → `benchmarks`), so that a user's own d2 sweep and the standard d2 grid are two records, never one
 * key twice; the task's standard project outside a named Vitest project. The names that do not read a Vitest test
 * (projects, cells, spans) live in src/tasks/project-names.ts.
 */
export const recordProjectOf = (test: { file: { projectName?: string } }, fallback: string): string =>
  declaredProjectName(test.file.projectName || fallback, inject(RUN_CONFIG_KEY)?.benchmarkProjects).replace(
    /@[^@]*$/,
    '',
  );
