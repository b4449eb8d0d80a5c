import type { RegisterCommand } from '../command.js';
import { COMMAND_HELP, type CommandName } from './table.js';

/** A command as the parser first sees it: its help row, and its code loaded only when it is the one run. */
export interface LazyCommand {
  name: string;
  usage: string;
  description: string;
  load: () => Promise<RegisterCommand>;
}

const LOADERS: Record<CommandName, () => Promise<RegisterCommand>> = {
  init: async () => (await import('./init.js')).registerInit,
  run: async () => (await import('./run.js')).registerRun,
  plan: async () => (await import('./plan.js')).registerPlan,
  baseline: async () => (await import('./baseline.js')).registerBaseline,
  compare: async () => (await import('./compare.js')).registerCompare,
  report: async () => (await import('./report.js')).registerReport,
  show: async () => (await import('./show.js')).registerShow,
  generate: async () => (await import('./generate.js')).registerGenerate,
  grade: async () => (await import('./grade.js')).registerGrade,
  fit: async () => (await import('./fit.js')).registerFit,
  'scc-replay': async () => (await import('./scc-replay.js')).registerSccReplay,
};

/** In the order `--help` lists them (the table's). */
export const commands: readonly LazyCommand[] = (Object.keys(COMMAND_HELP) as CommandName[]).map((name) => ({
  name,
  ...COMMAND_HELP[name],
  load: LOADERS[name],
}));
