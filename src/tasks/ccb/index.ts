import type { AnyTaskPlugin } from '../task';
import { d1Task } from './d1';
import { d2Task } from './d2';

export { d1Task } from './d1';
export { d2Task } from './d2';
export type { CcbPlugin } from './plugin';
export * from './types';

/** D1, D2, D3 of the Complexity Ceiling Benchmark. */
export const ccbTasks: AnyTaskPlugin[] = [d1Task, d2Task];
