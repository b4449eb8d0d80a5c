import type { FormatCategory } from './count/audit.js';
import type { FinishReason } from './task.js';

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

/** The ladder `testCountingCapacity()` and `runSccAssay` run when no task is given: SCC counting (paper 003). */
export const DEFAULT_LADDER_TASK = 'count';
