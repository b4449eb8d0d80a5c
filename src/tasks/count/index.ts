import type { AnyTaskPlugin } from '../task';

/** SCC counting and nested key-path — filled in by the SCC issue. */
export const countTasks: AnyTaskPlugin[] = [];
