import type { SccRecord } from '../../schema/report.js';
import { isTaskId, resolveTask } from '../../tasks/registry.js';
import type { SccResult } from './schema.js';

/** The standard project of the ladder's task as its plugin declares it (a Vitest test names its own instead). */
const projectOf = (task: string): string => (isTaskId(task) ? resolveTask(task).project : 'scc');

/**
 * The report record of an SCC run: its headline capacity beside the full result, and `stopped` (no CC measured)
 * when the spend ledger ended the ladder early. The record names the task the ladder ran (`result.task`).
 */
export function sccRecordOf(result: SccResult): SccRecord {
  return {
    kind: 'scc',
    project: projectOf(result.task),
    task: result.task,
    cc: result.cc,
    ccLower: result.ccLower,
    ccUpper: result.ccUpper,
    bounded: result.bounded,
    skipped: result.skipped,
    ...(result.stopped
      ? { stopped: { by: result.stopped.by, reason: result.stopped.reason, tiers: result.stopped.tiers } }
      : {}),
    result,
  };
}
