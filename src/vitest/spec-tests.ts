import { relative, sep } from 'node:path';
import type { SweepDesign } from '../config/design.js';
import { type PlannedUnit, plannedUnits } from '../tasks/standard-specs.js';
import { SPECS_DIR } from './files.js';

/** The tests a spec file declares, and the trials its cells will ask (the progress line's total and ETA). */
export interface SpecTests {
  tests: number;
  trials: number;
}

/** What decides a shipped spec file's tests beside the file: the run's design and trials, the project's subjects. */
export interface SpecTestsContext {
  design: SweepDesign;
  /** Trials per cell (the configured trials: the shipped specs set none of their own). */
  trials: number;
  /** Subjects the project describes a block for (1 with one subject). */
  subjects: number;
}

/**
 * A unit's tests as the glue declares them (src/vitest/sweep.ts, scc.ts): a grid sweep one test per level and a fit
 * test, its cells asking `trials` each; a CCB depth sweep under the adaptive or sequential design one test, which
 * declares no planned trials (it picks its own); an ablation one test per variant and the McNemar test; an SCC
 * assay one test, which declares none either (its ladder decides its calls).
 */
function unitTests(unit: PlannedUnit, { design, trials }: SpecTestsContext): SpecTests {
  switch (unit.kind) {
    case 'sweep': {
      if (unit.task.analysis === 'retention' && design.kind !== 'grid') return { tests: 1, trials: 0 };
      const levels = unit.task.levels.values.length;
      return { tests: levels + 1, trials: levels * trials };
    }
    case 'ablation':
      return { tests: unit.variants.length + 1, trials: unit.variants.length * trials };
    default:
      return { tests: 1, trials: 0 };
  }
}

/**
 * The tests a spec file shipped with the package declares, known before Vitest collects it: from the units its file
 * declares (src/tasks/standard-specs.ts, the plan's source) and the run's configuration. Undefined for any other file
 * (the user's own spec folder, a repository's tests): only collecting it says what it holds.
 */
export function shippedSpecTests(moduleId: string, context: SpecTestsContext): SpecTests | undefined {
  const path = relative(SPECS_DIR, moduleId);
  const parts = path.split(sep);
  if (parts.length !== 2 || path.startsWith('..')) return undefined;
  const [project, name] = parts;
  const file = /^(.+)\.spec\.[mc]?[jt]s$/.exec(name)?.[1];
  const units = plannedUnits(project).filter((u) => u.file === file);
  if (units.length === 0) return undefined;
  const each = units.map((u) => unitTests(u, context));
  const sum = (key: keyof SpecTests) => context.subjects * each.reduce((s, u) => s + u[key], 0);
  return { tests: sum('tests'), trials: sum('trials') };
}
