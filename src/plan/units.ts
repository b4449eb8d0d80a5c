import { projectOf, standardProjects } from '../tasks/project-names.js';
import { availableTasks, resolveTask } from '../tasks/registry.js';
import type { AnyTaskPlugin } from '../tasks/task.js';

/**
 * What a standard project runs, as the plan counts it. The sweeps come from the registry: every registered task of
 * the project whose analysis is a sweep (retention: d1, d2, d3; collapse: the puzzles) runs `describeSweep(id)`
 * over its levels. What the shipped spec files declare besides a sweep is named here, once
 * (test/plan/plan.test.ts loads every shipped spec file and checks that it declares exactly these units).
 */
export type PlannedUnit =
  | { kind: 'sweep'; task: AnyTaskPlugin }
  | { kind: 'ablation'; task: AnyTaskPlugin; level: number; variants: readonly string[] }
  /** `testCountingCapacity({ task })`: a counting-capacity ladder on a plugin that declares one. */
  | { kind: 'ladder'; task: AnyTaskPlugin }
  | { kind: 'scc-motif' }
  | { kind: 'scc-dual' }
  | { kind: 'scc-agent' };

/** The analyses a spec file runs as a `describeSweep` grid. */
const SWEPT = new Set(['retention', 'collapse']);

/** The shipped specs' declarations other than a sweep, per standard project (specs/<project>/*.spec.ts). */
const DECLARED: Readonly<Record<string, () => PlannedUnit[]>> = {
  // specs/d3/ablation.spec.ts
  d3: () => [
    { kind: 'ablation', task: resolveTask('d3'), level: 15, variants: ['standard', 'verbose', 'A', 'B', 'C'] },
  ],
  // specs/scc/{motif,dual-task,agent}.spec.ts
  scc: () => [{ kind: 'scc-motif' }, { kind: 'scc-dual' }, { kind: 'scc-agent' }],
};

/**
 * The units of a standard project, in run order: its sweeps, then the ladders its plugins declare planned (the
 * project's spec runs `testCountingCapacity({ task })`; both in registry order), then its other declarations.
 */
export function plannedUnits(project: string): PlannedUnit[] {
  if (!standardProjects().includes(project)) return [];
  const own = availableTasks().filter((task) => projectOf(task) === project);
  const sweeps: PlannedUnit[] = own.filter((task) => SWEPT.has(task.analysis)).map((task) => ({ kind: 'sweep', task }));
  const ladders: PlannedUnit[] = own.filter((task) => task.ladder?.planned).map((task) => ({ kind: 'ladder', task }));
  return [...sweeps, ...ladders, ...(DECLARED[project]?.() ?? [])];
}
