import type { TaskInstance } from '../../task.js';
import type { ControlPayload, DualCondition, SecondaryItem } from './conditions.js';

export interface DualData {
  condition: DualCondition;
  /** Number of `a` markers (the primary count). */
  count: number;
  sample: number;
  /** The secondary item: the task itself (real_task) or the item a control is matched to. */
  item: SecondaryItem | null;
  control: ControlPayload | null;
}

/** `level` is the target count; `answer` the exact JSON payload. */
export type DualInstance = TaskInstance<DualData, never, Record<string, unknown>>;
