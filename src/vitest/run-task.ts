import { inject } from 'vitest';
import { RUN_CONFIG_KEY, type RunConfig } from '../config/resolve.js';
import { withResponseChannels } from '../tasks/final-answer.js';
import { resolveTask } from '../tasks/registry.js';
import type { AnyTaskPlugin } from '../tasks/task.js';

/**
 * A registered task as this run grades it: the built-in reasoning delimiters and the run's own
 * (`reasoningDelimiters`, CEILINGBENCH_REASONING_TAGS). Without a provided configuration (a matcher in a plain
 * Vitest run), the built-in ones only.
 */
export function runTask(
  taskId: string,
  config: Pick<RunConfig, 'reasoningDelimiters'> | undefined = inject(RUN_CONFIG_KEY),
): AnyTaskPlugin {
  return withResponseChannels(resolveTask(taskId), config?.reasoningDelimiters ?? []);
}
