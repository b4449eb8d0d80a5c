import { projectOf, standardProjects } from './project-names.js';
import { availableTasks, resolveTask } from './registry.js';
import type { AnyTaskPlugin } from './task.js';

/**
 * What a standard project's shipped spec files declare (specs/<project>/<file>.spec.ts), unit by unit, each with the
 * file that declares it: the plan counts their trials and calls (src/plan), the progress line their tests before
 * Vitest collects a file (src/vitest/spec-tests.ts). The sweeps come from the registry: every registered task of the
 * project whose analysis is a sweep (retention: d1, d2, d3; collapse: the puzzles) runs `describeSweep(id)` over its
 * levels. What the shipped spec files declare besides a sweep is named here, once (test/plan/plan.test.ts loads every
 * shipped spec file and checks that it declares exactly these units, each in the file named).
 */
export type PlannedUnit = (
  | { kind: 'sweep'; task: AnyTaskPlugin }
  | { kind: 'ablation'; task: AnyTaskPlugin; level: number; variants: readonly string[] }
  /** `testCountingCapacity({ task })`: a counting-capacity ladder on a plugin that declares one. */
  | { kind: 'ladder'; task: AnyTaskPlugin }
  | { kind: 'scc-motif' }
  | { kind: 'scc-dual' }
  | { kind: 'scc-agent' }
) & {
  /** The spec file that declares it, without folder and extension: `retention` for specs/d2/retention.spec.ts. */
  file: string;
};

/** The analyses a spec file runs as a `describeSweep` grid. */
const SWEPT = new Set(['retention', 'collapse']);

/**
 * The file of a project's sweep: the CCB projects hold one depth sweep each (`retention.spec.ts`), the puzzles one
 * file per puzzle (`hanoi.spec.ts`).
 */
const sweepFile = (task: AnyTaskPlugin): string => (task.analysis === 'retention' ? 'retention' : task.id);

/** The shipped specs' declarations other than a sweep, per standard project (specs/<project>/*.spec.ts). */
const DECLARED: Readonly<Record<string, () => PlannedUnit[]>> = {
  d3: () => [
    {
      kind: 'ablation',
      task: resolveTask('d3'),
      level: 15,
      variants: ['standard', 'verbose', 'A', 'B', 'C'],
      file: 'ablation',
    },
  ],
  scc: () => [
    { kind: 'scc-motif', file: 'motif' },
    { kind: 'scc-dual', file: 'dual-task' },
    { kind: 'scc-agent', file: 'agent' },
  ],
};

/**
 * The units of a standard project, in run order: its sweeps, then the ladders its plugins declare planned (the
 * project's spec runs `testCountingCapacity({ task })` in `counting.spec.ts`; both in registry order), then its other
 * declarations.
 */
export function plannedUnits(project: string): PlannedUnit[] {
  if (!standardProjects().includes(project)) return [];
  const own = availableTasks().filter((task) => projectOf(task) === project);
  const sweeps: PlannedUnit[] = own
    .filter((task) => SWEPT.has(task.analysis))
    .map((task) => ({ kind: 'sweep', task, file: sweepFile(task) }));
  const ladders: PlannedUnit[] = own
    .filter((task) => task.ladder?.planned)
    .map((task) => ({ kind: 'ladder', task, file: 'counting' }));
  return [...sweeps, ...ladders, ...(DECLARED[project]?.() ?? [])];
}
