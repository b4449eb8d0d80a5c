export type { LadderAuditContext, LadderDeclaration } from './task.js';

/** The ladder `testCountingCapacity()` and `runSccAssay` run when no task is given: SCC counting (paper 003). */
export const DEFAULT_LADDER_TASK = 'count';
