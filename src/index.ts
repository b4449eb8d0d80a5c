/**
 * The core of ceilingbench (`ceilingbench`): tasks, subjects, estimators and record schemas — importable from
 * a plain Node script; nothing here imports Vitest. The Vitest side is `ceilingbench/vitest` (sweeps,
 * matchers), `ceilingbench/plugin` (the vitest.config.ts plugin) and `ceilingbench/reporter`; loading and
 * resolving a configuration is `ceilingbench/config`.
 *
 * Every name is listed here on purpose (test/package/public-surface.test.ts pins the list): a name not listed
 * is internal, whatever its module exports.
 */

// the SCC counting-capacity ladder, from a plain script (docs/scc.md)
export {
  /** @public Runs the SCC counting-capacity ladder of a task on a subject. */
  runSccAssay,
  /** @public What `runSccAssay` returns: CC, its interval and every trial. */
  type SccResult,
} from './assays/scc/index.js';
export {
  /** @public Types a ceilingbench.config.ts default export. */
  defineConfig,
} from './config/define.js';
// the configuration file (`ceilingbench.config.ts`); loading it is `ceilingbench/config`
export type {
  /** @public The configuration as resolved (defaults filled in). */
  CeilingbenchConfig,
  /** @public The configuration as written in ceilingbench.config.ts. */
  CeilingbenchUserConfig,
} from './config/schema.js';
export {
  /** @public The base of every error with a stable code. */
  CeilingbenchError,
  /** @public Every stable error code with its exit code. */
  ERROR_CODES,
  /** @public A stable error code (`CB_*`). */
  type ErrorCode,
  /** @public The CLI's exit codes by meaning. */
  EXIT,
  /** @public One of the CLI's exit codes. */
  type ExitCode,
  /** @public The stable code of an error, if it carries one. */
  errorCodeOf,
  /** @public A mistake in how ceilingbench was called (exit 2). */
  UsageError,
} from './errors.js';
// the records of report.json and baselines (src/schema): zod schemas, types inferred from them
export {
  /** @public The baseline file a later run compares with. */
  type Baseline,
  /** @public Parses a baseline file. */
  baselineSchema,
  /** @public One cell of a sweep: a level's trials and their summary. */
  type CellResult,
  /** @public A puzzle family's collapse fit (λ*). */
  type CollapseFit,
  /** @public Parses a cell record. */
  cellResultSchema,
  /** @public Parses a collapse fit. */
  collapseFitSchema,
  /** @public One gate's verdict. */
  type GateResult,
  /** @public Parses a gate verdict. */
  gateResultSchema,
  /** @public The report.json of a run. */
  type Report,
  /** @public A CCB family's retention fit (p_d, horizons). */
  type RetentionFit,
  /** @public Parses a report.json. */
  reportSchema,
  /** @public Parses a retention fit. */
  retentionFitSchema,
  /** @public One trial: prompt, response, outcome and usage. */
  type TrialRecord,
  /** @public Parses a trial record. */
  trialRecordSchema,
} from './schema/index.js';
// the pure estimators (src/stats), for a script that fits its own counts
export {
  /** @public What `collapseThreshold` returns. */
  type CollapseThreshold,
  /** @public Clopper–Pearson interval of a binomial proportion. */
  clopperPearson,
  /** @public The collapse threshold λ* of per-level accuracies. */
  collapseThreshold,
  /** @public Per-depth successes and trials. */
  type DepthCount,
  /** @public Fits p_d, its intervals and horizons to per-depth counts. */
  estimateRetention,
  /** @public What `summarizeKStar` returns. */
  type KStarSummary,
  /** @public One level's accuracy, the input of `collapseThreshold`. */
  type LevelAccuracy,
  /** @public Exact McNemar test on discordant pairs. */
  mcnemarExact,
  /** @public What `estimateRetention` returns. */
  type RetentionEstimate,
  /** @public k* (first failing step) summary of a cell's traces. */
  summarizeKStar,
  /** @public TFBC rate: correct answers whose trace diverged, over correct answers. */
  tfbcRate,
  /** @public Wilson score interval of a binomial proportion. */
  wilson,
} from './stats/index.js';
export {
  /** @public Builds the subject a spec string names (`sim:`, `oracle`, `openai:`, `replay:`, `module:`). */
  createSubject,
  /** @public A subject written as a function, for `defineSubject`. */
  type DefinedSubject,
  /** @public Declares a subject that is a function of the prompt. */
  defineSubject,
  /** @public Parses a subject spec string. */
  parseSubjectSpec,
  /** @public What a defined subject's function returns. */
  type SubjectAnswer,
  /** @public The answer a defined subject may return, before defaults. */
  type SubjectAnswerInput,
  /** @public The definition `defineSubject` takes. */
  type SubjectDefinition,
  /** @public One chat message a defined subject receives. */
  type SubjectMessage,
  /** @public One trial a defined subject answers. */
  type SubjectTrial,
  /** @public The subject CEILINGBENCH_SUBJECT names (default `sim:default`). */
  subjectFromEnv,
} from './subjects/index.js';
export type {
  /** @public Who answers a prompt. */
  Subject,
  /** @public How a subject is named in the report. */
  SubjectIdentity,
  /** @public One request to a subject. */
  TrialRequest,
  /** @public A subject's response. */
  TrialResponse,
} from './subjects/subject.js';
// task plugins: the contract, the registry and the built-in families (README "Adding a task family")
export {
  /** @public The analyses a task declares (retention, collapse, counting). */
  type Analysis,
  /** @public A task plugin of any instance and answer type. */
  type AnyTaskPlugin,
  /** @public Every registered task plugin. */
  availableTasks,
  /** @public A CCB trial's outcome. */
  type CcbOutcome,
  /** @public A counting trial's outcome. */
  type CountOutcome,
  /** @public Sim knobs of a counting family with capacity `cc`. */
  countingSim,
  /** @public How a counting answer was formatted. */
  type FormatCategory,
  /** @public Options of a plugin's `generate`. */
  type GenerateOptions,
  /** @public What a plugin's `grade` is told besides the text. */
  type GradeContext,
  /** @public All instances of one cell, reproducible from the seed. */
  generateCell,
  /** @public What a ladder's audit is told. */
  type LadderAuditContext,
  /** @public A plugin's declaration of its SCC ladder. */
  type LadderDeclaration,
  /** @public The axis a task's difficulty grows on. */
  type LevelAxis,
  /** @public A parse that succeeded or says why not. */
  type ParseResult,
  /** @public A rendered system + user prompt. */
  type Prompt,
  /** @public A puzzle trial's outcome. */
  type PuzzleOutcome,
  /** @public The reasoning channels ceilingbench separates from the answer. */
  REASONING_CHANNELS,
  /** @public A reasoning channel: delimiters and name. */
  type ReasoningChannel,
  /** @public A pair of reasoning delimiters. */
  type ReasoningDelimiter,
  /** @public Adds a task plugin to the registry. */
  registerTask,
  /** @public The task plugin of an id. */
  resolveTask,
  /** @public The knobs the sim subject answers a task with. */
  type SimKnobs,
  /** @public Sim knobs of a stepwise family with per-step retention. */
  stepwiseSim,
  /** @public The ids of the built-in tasks. */
  TASK_IDS,
  /** @public One generated task instance. */
  type TaskInstance,
  /** @public The task plugin contract. */
  type TaskPlugin,
  /** @public Any trial's outcome (CCB, puzzle or count). */
  type TrialOutcome,
} from './tasks/index.js';
// the puzzle builder, for a family that validates an answer block (README "Adding a task family")
export {
  /** @public A budget that grows with the answer's size. */
  answerSizedBudget,
  /** @public A budget per puzzle level. */
  budgetPerLevel,
  /** @public Builds a puzzle plugin from its declaration. */
  definePuzzle,
  /** @public A failed puzzle outcome with its issues. */
  failOutcome,
  /** @public An answer that is a JSON list assigned to a name. */
  listAnswer,
  /** @public An answer that is a JSON object assigned to a name. */
  objectAnswer,
  /** @public What `definePuzzle` takes. */
  type PuzzleDeclaration,
  /** @public What `definePuzzle` returns. */
  type PuzzleTask,
  /** @public A passed puzzle outcome. */
  passOutcome,
} from './tasks/puzzles/common/index.js';
