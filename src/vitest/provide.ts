import type { TestProject, Vitest } from 'vitest/node';
import { ConfigError } from '../config/errors.js';
import { RUN_CONFIG_KEY, type RunConfig } from '../config/resolve.js';
import { unknownGateKeys } from '../gates/index.js';
import { PROJECT_PATTERNS_KEY, type ProjectSubject, SUBJECTS_KEY } from './context.js';
import { DECLARED_KEY } from './declare.js';
import { runConfigFor } from './run-config.js';
import { selectedSubjects } from './subject-filter.js';

const checked = new WeakMap<object, Set<string>>();

/**
 * A gate key that names no project of the configuration (filtered out of this run or not) is a configuration
 * error before anything runs, with the projects it could mean: a mistyped key would gate nothing.
 */
function checkGateKeys(vitest: Vitest, run: RunConfig, names: readonly string[]): void {
  const roots = checked.get(vitest) ?? new Set<string>();
  checked.set(vitest, roots);
  if (roots.has(run.root)) return;
  roots.add(run.root);
  const unknown = unknownGateKeys(run.gates, [...names, ...vitest.projects.map((p) => p.name)]);
  if (unknown.length > 0) throw new ConfigError(unknown.join('\n'));
}

/**
 * The subjects of a project with several that the run's `--project` patterns select (`d2@gpt-4o`): those
 * `ceilingbench run` provides as typed, else Vitest's own (`vitest --project d2 --project 'd2@gpt-4o'`: Vitest
 * selects projects by their own name, `d2`). None selected is an error: the project would run nothing.
 */
function subjectsSelected(vitest: Vitest, project: TestProject, subjects: ProjectSubject[]): ProjectSubject[] {
  const patterns =
    (vitest.config.provide?.[PROJECT_PATTERNS_KEY] as string[] | undefined) ?? vitest.config.project ?? [];
  const labels = selectedSubjects(
    project.name,
    subjects.map((s) => s.label),
    patterns,
  );
  if (labels.length === 0) {
    throw new ConfigError(
      `ceilingbench plugin: --project ${patterns.join(', ')} selects no subject of project '${project.name}' ` +
        `(${subjects.map((s) => `${project.name}@${s.label}`).join(', ')})`,
    );
  }
  return subjects.filter((s) => labels.includes(s.label));
}

/**
 * Provides a project with the run's configuration, resolved in the main process against the ceilingbench root it
 * was declared for (a workspace package's, else Vitest's root, unless `root` says otherwise), with the benchmark
 * projects that root declared and the shard this run is.
 */
export async function provideRunConfig(vitest: Vitest, project: TestProject, root?: string): Promise<void> {
  const declared = project.config.provide?.[DECLARED_KEY];
  const run = await runConfigFor(vitest, root ?? declared?.root ?? vitest.config.root);
  const subjects = project.config.provide?.[SUBJECTS_KEY] as ProjectSubject[] | undefined;
  const foreign = (subjects ?? []).filter((s) => !run.subjects.includes(s.spec));
  if (foreign.length > 0) {
    throw new ConfigError(
      `ceilingbench plugin: project '${project.name}' was declared for subject '${foreign[0].spec}', which the ` +
        `resolved configuration does not list (${run.subjects.join(', ')}) — did CEILINGBENCH_SUBJECTS change while Vitest started?`,
    );
  }
  if (subjects) project.provide(SUBJECTS_KEY, subjectsSelected(vitest, project, subjects));
  if (declared) checkGateKeys(vitest, run, [...declared.benchmark, ...declared.other]);
  project.provide(RUN_CONFIG_KEY, {
    ...run,
    ...(declared ? { benchmarkProjects: declared.benchmark } : {}),
    ...(declared?.dirs ? { benchmarkDirs: declared.dirs } : {}),
    ...(vitest.config.shard ? { shard: { index: vitest.config.shard.index, count: vitest.config.shard.count } } : {}),
  });
}
