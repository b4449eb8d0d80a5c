import type { PyRandom } from '../rng/index.js';
import type { FormatCategory } from './count/format.js';
import type { TrialOutcome } from './outcome.js';
import type { ReasoningDelimiter } from './reasoning-channels.js';

/**
 * The plugin contract every task family implements. Pure: no I/O, no subjects, no clock.
 * A family is one folder in src/tasks exporting plugins; the registry resolves them by id.
 */

/** What a level is: a CCB depth N, a puzzle level 1–6, a counting length. */
export const LEVEL_KINDS = ['depth', 'level', 'length'] as const;

/** The complexity axis a family sweeps: depths N for CCB, levels 1–6 for puzzles, lengths for counting. */
export interface LevelAxis {
  kind: (typeof LEVEL_KINDS)[number];
  /** The default sweep, ascending. */
  values: readonly number[];
  /** The raw knob behind each level where it is scalar (e.g. Hanoi disks), for λ* on the raw axis. */
  knob?: (level: number) => number | undefined;
}

export interface Prompt {
  system: string;
  user: string;
}

/** Why generation stopped, as the OpenAI API reports it; `null` when unknown (replay, sim). */
export type FinishReason = 'stop' | 'length' | 'content_filter' | 'tool_calls' | 'function_call' | null;

/**
 * The answer-reading profiles (docs/outputs.md, "Two reading profiles"): 'final', the default of sweeps, gates and
 * leaderboards, decides whether a trial counts from the response's form before comparing its answer with the
 * truth, and reads only a final answer; 'authors' reads as a paper's released code did, for a reproduction that
 * must match its published scores (CCB: the release's precedence; counting: the last integer).
 */
export const READING_PROFILES = ['final', 'authors'] as const;
export type ReadingProfile = (typeof READING_PROFILES)[number];

/** How a response came back and how to read it: the harness's knowledge, never the family's own. */
export interface GradeContext {
  finishReason?: FinishReason;
  /**
   * The user's reasoning delimiters (`reasoningDelimiters`, CEILINGBENCH_REASONING_TAGS), set aside like the
   * built-in ones of src/tasks/reasoning-channels.ts before the family grades.
   */
  reasoningDelimiters?: readonly ReasoningDelimiter[];
  /**
   * Which reading profile (READING_PROFILES). 'final' (the default): counted or set aside is decided from the
   * response's form, blind to correctness, and only the model's final answer is read — an answer followed by more
   * reasoning at the token limit, retracted or hedged is no answer (src/tasks/finality.ts, docs/outputs.md).
   * 'authors': the paper's own parser and precedence as its released code ran them, for a reproduction that must
   * match the published scores (CCB: correct before format and truncation; the SCC ladder: the last integer of the
   * text outside reasoning blocks). Reasoning blocks are set aside under both.
   */
  reading?: ReadingProfile;
}

/** Family-specific generation options; `profile` is CCB's official | paper. */
export interface GenerateOptions {
  profile?: string;
  [option: string]: unknown;
}

/**
 * One generated instance. `trace` is the canonical state after each step (empty where a family has
 * no stepwise state); `answer` the exact expected answer; `data` the family's own instance payload.
 */
export interface TaskInstance<D = unknown, S = unknown, A = unknown> {
  task: string;
  level: number;
  /** The seed the instance was generated from (for CCB official: the release's instance seed). */
  seed: number;
  profile: string;
  data: D;
  trace: S[];
  answer: A;
}

/**
 * A response's trace beside the canonical one, state by state, in the keys the grader compares (whitespace-free,
 * canonical order): what a report shows to say where a trace left the canonical one. Positional, like k*.
 */
export interface TraceComparison {
  /** The response's parsed trace steps, in order; `issue` says why a step could not be read or breaks a rule. */
  model: ReadonlyArray<{ state: string; issue?: string }>;
  /** The canonical state after each step. */
  canonical: readonly string[];
  /** The parsed final answer (null: none could be read) and the expected one. */
  answer: { model: string | null; canonical: string };
}

export type ParseResult<T> = { ok: true; value: T } | { ok: false; reason: string };

/** Knobs of the simulated subject (src/subjects/sim); each task uses the ones it understands. */
export interface SimKnobs {
  /** Per-step probability that the simulated model carries the state correctly. */
  retention: number;
  /** Probability that a divergent trajectory still ends in the right answer (exercises TFBC). */
  recover: number;
  /** Counting capacity for count-like tasks. */
  capacity: number;
}

/**
 * How a sweep of the plugin's cells is analysed: `retention` fits the per-step retention p_d over depths
 * (CCB; also k*, TFBC, the horizon and the adaptive depth design), `collapse` reports accuracy per level and
 * the collapse threshold λ* (puzzles), `counting` the same per-length view for tasks whose capacity the SCC
 * ladder measures (counting, nested key paths, the secondary assays).
 */
export const ANALYSES = ['retention', 'collapse', 'counting'] as const;
export type Analysis = (typeof ANALYSES)[number];

/**
 * The plugin contract. Everything the harness branches on is a declaration here — the Vitest project, the
 * outcome record, the analysis, the simulated subject's default behaviour — so that no code outside a
 * family's folder tests which family a plugin belongs to.
 */
/** Sim knobs of a stepwise task: per-step retention p, no recovery, unbounded capacity. */
export const stepwiseSim = (retention: number): SimKnobs => ({
  retention,
  recover: 0,
  capacity: Number.POSITIVE_INFINITY,
});

/** Sim knobs of a counting task: counting capacity cc, perfect retention. */
export const countingSim = (capacity: number): SimKnobs => ({ retention: 1, recover: 0, capacity });

export interface TaskPlugin<I extends TaskInstance = TaskInstance, P = unknown> {
  readonly id: string;
  /**
   * The outcome record the plugin grades into (src/tasks/outcome.ts): `ccb` stepwise traces with a final
   * answer, `puzzle` validated move sequences, `count` an integer answer. It decides the outcome kinds and
   * what counts as success or missing; nothing else.
   */
  readonly family: TrialOutcome['family'];
  /** The Vitest project its cells run in (`d2`, `puzzles`, `scc`): the standard projects are derived from it. */
  readonly project: string;
  readonly analysis: Analysis;
  /** What `sim:default` does on this task (the other sim profiles set the knobs for every task alike). */
  readonly simDefault: SimKnobs;
  readonly title: string;
  readonly levels: LevelAxis;
  /** Prompt variants; the first is the default. A variant changes the prompt only, never the instance. */
  readonly variants: readonly string[];
  /** Generation profiles; the first is the default. */
  readonly profiles: readonly string[];
  /**
   * The level alone determines the instance (e.g. Tower of Hanoi with n disks): a cell's trials are
   * then replicates of that one instance, distinguished by their replicate index.
   */
  readonly fixedInstancePerLevel?: boolean;
  /** Generate one instance from a seeded RNG. Deterministic in (rng state, level, options). */
  generate(rng: PyRandom, level: number, options: GenerateOptions & { seed: number }): I;
  /** A key for de-duplicating instances within a level (e.g. CCB's operation chain). */
  instanceKey(instance: I): string;
  render(instance: I, variant?: string): Prompt;
  /** The exact text a perfect model answers, in the prompt's format. */
  canonicalResponse(instance: I): string;
  /**
   * `parse` and `grade` read an answer text. A registered plugin (resolveTask, availableTasks) reads a whole
   * response instead: the registry sets reasoning blocks and whitespace variants aside first
   * (src/tasks/final-answer.ts), so a family never handles them itself.
   */
  parse(text: string): ParseResult<P>;
  grade(instance: I, text: string, context?: GradeContext): TrialOutcome;
  /**
   * Stepwise families: the response's trace beside the canonical one (see TraceComparison), for the examples a
   * report shows. It reads the final-answer text only: the caller sets reasoning aside first (readResponse).
   * Absent: the family has no stepwise trace to compare.
   */
  compareTrace?(instance: I, answerText: string): TraceComparison;
  /** A response from a simulated model with known truth, in the task's exact format. */
  simulate(instance: I, rng: PyRandom, knobs: SimKnobs): string;
  /**
   * Named output-budget rules where a family has more than one; the first is the default. A cell records the
   * one it used. Absent: one rule, the family's.
   */
  readonly budgets?: readonly string[];
  /** The output-token budget of a level under a budget rule (default: the first of `budgets`). */
  maxOutputTokens(level: number, budget?: string): number;
  /**
   * Mean response length at a level, in tokens, as measured on real models (CCB: the paper's AvgTok column). A
   * spend estimate uses it when present, and the tokenized canonical response otherwise.
   */
  expectedOutputTokens?(level: number): number;
  /**
   * The plugin runs on the SCC counting-capacity ladder (src/tasks/ladder.ts): its `generate` honours the
   * option `count` (an instance with exactly that many items) and it grades into the `count` outcome record.
   */
  readonly ladder?: LadderDeclaration;
}

/** What the format audit of a ladder trial knows besides the whole response text. */
export interface LadderAuditContext {
  /** 'length' when the output was cut at the token budget. */
  finishReason: FinishReason;
  /** The request failed at the transport layer (the text is the harness's error line, or the previous attempt's). */
  transportError: boolean;
  /** The prompt variant the ladder renders (for counting: the stimulus motif). */
  variant: string;
}

/**
 * What a task plugin declares to run on the SCC counting-capacity ladder (src/assays/scc; docs/spec/scc.md). The
 * ladder asks for instances with exactly `target` items through the plugin's `generate` (option `count`, the
 * level being the tier centre), renders them with `render`, and scores the answer with the registered `grade`:
 * a ladder plugin grades into the `count` outcome record (exact | inexact | unparsed, relative error). An answer
 * the plugin parses but cannot score (counting: the squared error overflows, the authors' OverflowError) is an
 * error trial; while a cut-off answer has nothing the plugin parses, the budget rule doubles the output budget.
 */
export interface LadderDeclaration {
  /**
   * The standard project's spec file runs this ladder (`testCountingCapacity`), so the spend plan counts it.
   * False for a ladder a user asks for in their own spec.
   */
  readonly planned: boolean;
  /**
   * The Table S2 format category of a whole response (reasoning tags included: the audit is a reporting
   * statistic of what the model wrote, never a score).
   */
  audit(text: string, context: LadderAuditContext): FormatCategory;
}

/** A plugin with its instance and parse types erased, as the registry hands it out. */
// biome-ignore lint/suspicious/noExplicitAny: erasing the generic parameters at the registry boundary
export type AnyTaskPlugin = TaskPlugin<any, any>;
