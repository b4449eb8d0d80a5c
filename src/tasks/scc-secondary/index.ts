import type { AnyTaskPlugin } from '../task';
import { agentPlugin } from './agent/plugin';
import { dualPlugin } from './dual/plugin';

export * from './agent/ladder';
export * from './agent/plugin';
export * from './agent/prompts';
export * from './agent/score';
export * from './agent/task';
export * from './common';
export * from './dual/conditions';
export * from './dual/controls';
export * from './dual/plugin';
export * from './dual/score';
export { SIM_LOADS } from './dual/simulate';
export * from './json-extract';
export { type PyValue, parsePythonLiteral, pythonDictLiteral } from './python-literal';
export { simulatedCount } from './sim-count';

/** SCC secondary assays as task plugins: dual-task interference and agent operations (paper 003, Notes 7–8). */
export const sccSecondaryTasks: AnyTaskPlugin[] = [dualPlugin, agentPlugin];
