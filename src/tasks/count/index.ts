import { nestedPlugin } from '../nested/plugin.js';
import type { AnyTaskPlugin } from '../task.js';
import { countPlugin } from './plugin.js';

export * from './audit.js';
export * from './grade.js';
export * from './parse.js';
export * from './plugin.js';
export * from './simulate.js';
export * from './stimulus.js';

/** SCC counting and nested key-path matching. */
export const countTasks: AnyTaskPlugin[] = [countPlugin, nestedPlugin];
