/** The public API of ceilingbench: configuration, Vitest cells and matchers, tasks, subjects, estimators. */

export type { CeilingbenchUserConfig } from './config';
export { defineConfig } from './config';
export * as schema from './schema';
export * as stats from './stats';
export { createSubject, parseSubjectSpec, subjectFromEnv } from './subjects';
export type { Subject, SubjectIdentity, TrialRequest, TrialResponse } from './subjects/subject';
export type { AnyTaskPlugin, TaskInstance, TaskPlugin, TrialOutcome } from './tasks';
export { availableTasks, generateCell, resolveTask, TASK_IDS } from './tasks';
export { ceilingbenchMatchers, describeAblation, describeSweep, installMatchers } from './vitest';
