import type { AnyTaskPlugin } from '../task.js';
import { agentPlugin } from './agent/plugin.js';
import { dualPlugin } from './dual/plugin.js';

/** SCC secondary assays as task plugins: dual-task interference and agent operations (paper 003, Notes 7–8). */
export const sccSecondaryTasks: AnyTaskPlugin[] = [dualPlugin, agentPlugin];
