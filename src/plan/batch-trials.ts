import { replicateIndices } from '../assays/sweep/run-cell.js';
import type { RunConfig } from '../config/resolve.js';
import { BatchUnsupportedError } from '../errors.js';
import { subjectLabels } from '../subjects/label.js';
import { parseSubjectSpec } from '../subjects/spec.js';
import type { TrialRequest } from '../subjects/subject.js';
import { generateCell } from '../tasks/instances.js';
import { standardProjects } from '../tasks/project-names.js';
import { type PlannedUnit, plannedUnits } from '../tasks/standard-specs.js';
import type { AnyTaskPlugin, TaskInstance } from '../tasks/task.js';
import { matchProject, selectProjects } from './projects.js';

/** Instance seeds of a run (src/vitest/context.ts seedOffsetFor: seed s shifts every seed by s · 10^6). */
const seedOffsetOf = (runSeed: number): number => runSeed * 1_000_000;

/** The projects whose every trial is known before the run: the grid sweeps and the ablation. */
const GRID_HINT = `name grid projects with --project (${['d1', 'd2', 'd3', 'puzzles'].join(',')})`;

/**
 * The trials the selected cells of a run will ask an openai subject, exactly as the sweep asks them (run-cell.ts,
 * run-trial.ts): each cell's instances (the run's trials, seeds shifted by the run seed), the cell's variant, the
 * replicate index, the output budget of the task's default rule. The plan counts the same trials (sweep.ts).
 * A unit whose next request depends on earlier answers — the SCC ladder and assays, the adaptive and sequential
 * designs — cannot be listed before the run: a BatchUnsupportedError naming it (CB_BATCH_UNSUPPORTED), as is a
 * project of the user's own spec files, whose trials only its spec files know.
 */
export function batchTrials(
  config: RunConfig,
  projects: readonly string[] | undefined,
): { spec: string; model: string; trials: TrialRequest[] }[] {
  const several = config.subjects.length > 1;
  const labels: (string | null)[] = several ? subjectLabels(config.subjects) : [null];
  // a glob (`d*`) as Vitest reads it, over the standard projects; another name is left to say it is not one
  const names = (projects ?? standardProjects()).flatMap((name) => {
    const hits = matchProject(name, standardProjects());
    return hits.length > 0 ? hits : [name];
  });
  const selected = selectProjects(names, labels);
  const out: { spec: string; model: string; trials: TrialRequest[] }[] = [];
  for (const [i, spec] of config.subjects.entries()) {
    const parsed = parseSubjectSpec(spec);
    if (parsed.kind !== 'openai') continue;
    const trials: TrialRequest[] = [];
    for (const project of selected[i] ?? []) {
      if (!standardProjects().includes(project.base))
        throw new BatchUnsupportedError(
          `--batch: project '${project.name}' runs your own spec files, whose trials are not known before the run — ${GRID_HINT}`,
        );
      for (const unit of plannedUnits(project.base)) trials.push(...unitTrials(unit, config, project.name));
    }
    out.push({ spec, model: parsed.model, trials });
  }
  if (out.length === 0)
    throw new BatchUnsupportedError(
      `--batch: no openai subject in the run (${config.subjects.join(', ')}): only openai:<model> subjects are batched`,
    );
  return out;
}

function unitTrials(unit: PlannedUnit, config: RunConfig, project: string): TrialRequest[] {
  const context = { trials: config.trials, seedOffset: seedOffsetOf(config.seed) };
  switch (unit.kind) {
    case 'sweep': {
      if (config.design.kind !== 'grid' && unit.task.analysis === 'retention')
        throw new BatchUnsupportedError(
          `--batch: the ${config.design.kind} design chooses each next trial from the answers so far, so its requests cannot be batched ahead — run it live, or use --design grid with --batch`,
        );
      const variant = unit.task.variants[0];
      return unit.task.levels.values.flatMap((level) =>
        cellTrials(unit.task, level, variant, grid(unit.task, level, context)),
      );
    }
    case 'ablation': {
      const instances = grid(unit.task, unit.level, context);
      return unit.variants.flatMap((variant) => cellTrials(unit.task, unit.level, variant, instances));
    }
    default:
      throw new BatchUnsupportedError(
        `--batch: project '${project}' runs ${unitName(unit)}, whose next request depends on the answers so far — ${GRID_HINT}`,
      );
  }
}

const unitName = (unit: PlannedUnit): string =>
  unit.kind === 'ladder' ? `the counting-capacity ladder of '${unit.task.id}'` : `the SCC ${unit.kind.slice(4)} assay`;

const grid = (task: AnyTaskPlugin, level: number, context: { trials: number; seedOffset: number }) =>
  generateCell(task, level, context.trials, { profile: task.profiles[0], seedOffset: context.seedOffset });

function cellTrials(
  task: AnyTaskPlugin,
  level: number,
  variant: string,
  instances: readonly TaskInstance[],
): TrialRequest[] {
  const replicate = replicateIndices(task, instances);
  // the budget rule a cell runs under by default (run-cell.ts: the task's first)
  const cap = task.maxOutputTokens(level, task.budgets?.[0]);
  return instances.map((instance, i) => ({
    taskId: task.id,
    instance,
    prompt: task.render(instance, variant),
    trialIndex: replicate[i] as number,
    maxOutputTokens: cap,
  }));
}
