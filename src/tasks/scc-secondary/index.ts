import type { AnyTaskPlugin } from '../task';

/** SCC secondary assays as task plugins (dual-task interference, agent operations) — filled in by issue 11. */
export const sccSecondaryTasks: AnyTaskPlugin[] = [];
