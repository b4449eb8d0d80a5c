/** Marks the projects the plugin adds, so that `ceilingbench run` can tell them from a repository's own tests. */
export const BENCHMARK_MARK = 'ceilingbench:benchmark';

/** Whether a resolved Vitest project is one the plugin added (a standard project or the user's spec folder). */
export const isBenchmarkProject = (project: { config: { provide?: Record<string, unknown> } }): boolean =>
  project.config.provide?.[BENCHMARK_MARK] === true;
