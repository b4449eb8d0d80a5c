import { nestedPlugin } from '../nested/plugin';
import type { AnyTaskPlugin } from '../task';
import { countPlugin } from './plugin';

export * from './audit';
export * from './grade';
export * from './parse';
export * from './plugin';
export * from './simulate';
export * from './stimulus';
export * from './targets';

/** SCC counting and nested key-path matching. */
export const countTasks: AnyTaskPlugin[] = [countPlugin, nestedPlugin];
