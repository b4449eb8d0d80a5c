/**
 * The core of ceilingbench (`ceilingbench`): tasks, subjects, estimators and record schemas — importable from
 * a plain Node script; nothing here imports Vitest. The Vitest side is `ceilingbench/vitest` (sweeps,
 * matchers), `ceilingbench/plugin` (the vitest.config.ts plugin) and `ceilingbench/reporter`.
 */

export { runSccAssay, type SccResult } from './assays/scc/index.js';
export type { CeilingbenchConfig, CeilingbenchUserConfig, RunConfig } from './config/index.js';
export { defineConfig, loadConfig, resolveRunConfig } from './config/index.js';
export {
  CeilingbenchError,
  ERROR_CODES,
  type ErrorCode,
  EXIT,
  type ExitCode,
  errorCodeOf,
  UsageError,
} from './errors.js';
export * as schema from './schema/index.js';
export * as stats from './stats/index.js';
export {
  createSubject,
  type DefinedSubject,
  defineSubject,
  parseSubjectSpec,
  type SubjectAnswer,
  type SubjectAnswerInput,
  type SubjectDefinition,
  type SubjectMessage,
  type SubjectTrial,
  subjectFromEnv,
} from './subjects/index.js';
export type { Subject, SubjectIdentity, TrialRequest, TrialResponse } from './subjects/subject.js';
export type {
  Analysis,
  AnyTaskPlugin,
  CcbOutcome,
  CountOutcome,
  FormatCategory,
  GenerateOptions,
  GradeContext,
  LadderAuditContext,
  LadderDeclaration,
  LevelAxis,
  ParseResult,
  Prompt,
  PuzzleOutcome,
  ReasoningChannel,
  ReasoningDelimiter,
  SimKnobs,
  TaskInstance,
  TaskPlugin,
  TrialOutcome,
} from './tasks/index.js';
export {
  availableTasks,
  countingSim,
  generateCell,
  REASONING_CHANNELS,
  registerTask,
  resolveTask,
  stepwiseSim,
  TASK_IDS,
} from './tasks/index.js';
// the puzzle builder, for a family that validates an answer block (see README "Adding a task family")
export {
  answerSizedBudget,
  budgetPerLevel,
  definePuzzle,
  failOutcome,
  listAnswer,
  objectAnswer,
  type PuzzleDeclaration,
  type PuzzleTask,
  passOutcome,
} from './tasks/puzzles/common/index.js';
