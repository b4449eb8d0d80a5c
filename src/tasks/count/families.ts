import { nestedPlugin } from '../nested/plugin.js';
import type { AnyTaskPlugin } from '../task.js';
import { countPlugin } from './plugin.js';

/** SCC counting and nested key-path matching. */
export const countTasks: AnyTaskPlugin[] = [countPlugin, nestedPlugin];
