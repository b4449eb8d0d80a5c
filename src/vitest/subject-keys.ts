// The provided-context keys of a run with several subjects; no import, so that the CLI names them without loading
// Vitest's runtime.

/** The key under which a benchmark project provides the subjects it runs (several subjects only). */
export const SUBJECTS_KEY = 'ceilingbench:subjects';

/** The key under which `ceilingbench run` provides its `--project` patterns as typed. */
export const PROJECT_PATTERNS_KEY = 'ceilingbench:project-patterns';
