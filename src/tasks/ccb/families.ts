import type { AnyTaskPlugin } from '../task.js';
import { d1Task } from './d1/index.js';
import { d2Task } from './d2/index.js';
import { d3Task } from './d3/index.js';

/** D1, D2, D3 of the Complexity Ceiling Benchmark. */
export const ccbTasks: AnyTaskPlugin[] = [d1Task, d2Task, d3Task];
