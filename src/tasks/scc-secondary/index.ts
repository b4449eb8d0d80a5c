import type { AnyTaskPlugin } from '../task.js';
import { agentPlugin } from './agent/plugin.js';
import { dualPlugin } from './dual/plugin.js';

export * from './agent/ladder.js';
export * from './agent/plugin.js';
export * from './agent/prompts.js';
export * from './agent/score.js';
export * from './agent/task.js';
export * from './common.js';
export * from './dual/conditions.js';
export * from './dual/controls.js';
export * from './dual/plugin.js';
export * from './dual/score.js';
export { SIM_LOADS } from './dual/simulate.js';
export * from './json-extract.js';
export { type PyValue, parsePythonLiteral, pythonDictLiteral } from './python-literal.js';
export { simulatedCount } from './sim-count.js';

/** SCC secondary assays as task plugins: dual-task interference and agent operations (paper 003, Notes 7–8). */
export const sccSecondaryTasks: AnyTaskPlugin[] = [dualPlugin, agentPlugin];
