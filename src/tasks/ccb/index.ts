import type { AnyTaskPlugin } from '../task';
import { d1Task } from './d1';
import { d2Task } from './d2';
import { d3Task } from './d3';

export { d1Task } from './d1';
export { d2Task } from './d2';
export { d3Task } from './d3';
export type { CcbPlugin } from './plugin';
export * from './types';

/** D1, D2, D3 of the Complexity Ceiling Benchmark. */
export const ccbTasks: AnyTaskPlugin[] = [d1Task, d2Task, d3Task];
