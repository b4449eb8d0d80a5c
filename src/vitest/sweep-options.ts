import type { DefinedSubject } from '../subjects/function/define.js';
import type { GenerateOptions } from '../tasks/task.js';

/** What a sweep spec file asks of `describeSweep` (./sweep.ts) and its designs (./sweep-designs.ts). */
export interface SweepOptions {
  /** Levels to run (CCB depths, puzzle levels); default: the task's own axis. */
  levels?: readonly number[];
  /** Trials per cell; default: the configured trial count (40). */
  trials?: number;
  profile?: string;
  variant?: string;
  /** The output-budget rule, for a task with several (puzzles: 'fixed', the default, or 'per-level'). */
  budget?: string;
  generateOptions?: GenerateOptions;
  /**
   * Who answers this sweep instead of the run's subject: a `defineSubject` subject (your own pipeline). It goes
   * through the run's response cache and spend accounts; a spending limit needs it named as a run subject instead
   * (`--subject module:<path>#<export>`), where the main process sees it.
   */
  subject?: DefinedSubject;
}
