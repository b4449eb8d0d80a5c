import type { AnyTaskPlugin } from '../task';

/** D1, D2, D3 — filled in by the CCB issue. */
export const ccbTasks: AnyTaskPlugin[] = [];
