/**
 * Every command's usage and one-line description, without its code: `ceilingbench --help` lists the commands from
 * this table, and only the command a run names is imported (./list.ts). Each command registers itself with its row.
 */

/** Where `report` and `show` look when no ceilingbench.json is named. */
export const DEFAULT_REPORT = 'reports/ceilingbench.json';

export const COMMAND_HELP = {
  init: {
    usage: 'init',
    description:
      'Add vitest.config.ts, ceilingbench.config.ts, an example spec, a CI workflow and .gitignore entries to a repository',
  },
  run: {
    usage: 'run',
    description: 'Run the benchmark (all projects by default) and write reports',
  },
  plan: {
    usage: 'plan',
    description: 'Estimate a run before it starts: calls, tokens and cost per project (no request is sent)',
  },
  baseline: {
    usage: 'baseline <action> [name]',
    description: 'save <name>: store a run as a release baseline; history: CC and p_d per release',
  },
  compare: {
    usage: 'compare <baseline> <candidate>',
    description:
      'Compare two runs (ceilingbench.json or baselines/*.json); exit 1 on a regression or on a baseline record it did not compare',
  },
  report: {
    usage: 'report [...json]',
    description: `Write index.html (inline SVG charts, no network) and charts.vl.json from a ceilingbench.json (default ${DEFAULT_REPORT}); with several files or a folder, merge the runs into one report and leaderboard (--out required)`,
  },
  show: {
    usage: 'show [json]',
    description: `Print the example trials of a report's cells (default ${DEFAULT_REPORT}): what the model wrote, its trace beside the canonical one with the first divergent step marked`,
  },
  generate: {
    usage: 'generate <task>',
    description: 'Generate one instance with its prompt and canonical (perfect) response',
  },
  grade: {
    usage: 'grade <task>',
    description: 'Grade model responses against generated instances',
  },
  fit: {
    usage: 'fit',
    description: 'Fit the geometric step-retention p_d to per-depth counts (JSON or CSV)',
  },
  'scc-replay': {
    usage: 'scc-replay',
    description: 'Replay released SCC logs through our ladder and compare with the published CC',
  },
} as const satisfies Record<string, { usage: string; description: string }>;

export type CommandName = keyof typeof COMMAND_HELP;
