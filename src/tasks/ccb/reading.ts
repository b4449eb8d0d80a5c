import { echo, LIST_MAX, listBounded } from '../echo.js';
import { type AnswerEnd, finalityOf } from '../finality.js';
import type { CcbOutcome } from '../outcome.js';
import type { GradeContext } from '../task.js';

/** One parsed state (a trace step or the answer) of a model response. */
export interface StateReading {
  /** Comparison key: whitespace-free and in canonical order, so layout never changes a verdict. */
  norm: string;
  /** The state's text could not be read as a state (release F2a) → Format. */
  formatIssue?: string;
  /** The state breaks a structural rule of the task (profile-dependent) → Constraint. */
  constraintIssue?: string;
}

/** What a domain parser extracted from a response, positionally. */
export interface CcbReading {
  steps: StateReading[];
  answer: StateReading | null;
  /** Whole-response format problems (missing keywords, prose inside steps). */
  formatIssues: string[];
  /** What the parser decided that a reader should know (several ANSWER blocks, an unclosed one); not a verdict. */
  notes?: string[];
  /** Where the answer ends in the text, so that what follows it can be read (src/tasks/finality.ts). */
  answerEnd?: AnswerEnd;
}

/** The ground truth a response is graded against, already normalised like `StateReading.norm`. */
export interface CcbTruth {
  steps: string[];
  answer: string;
}

/**
 * Algorithm 1's k*: the first 1-based position whose parsed state differs from the ground truth, a
 * missing step counting as divergent; −1 when every ground-truth step is matched. Positional: the step
 * number a model writes is ignored.
 */
export function divergenceStep(truthSteps: readonly string[], steps: readonly StateReading[]): number {
  for (let i = 0; i < truthSteps.length; i++) {
    if (i >= steps.length || steps[i].norm !== truthSteps[i]) return i + 1;
  }
  return -1;
}

/**
 * The six-way classification in the release's precedence (docs/spec/ccb.md §6.0, the D3 order applied to every
 * domain): api → correct → format → truncation → constraint → reasoning.
 *
 * - api: an empty response that was not cut off (the release's D3 rule; missing data).
 * - correct: the final answer matches exactly; the trace only feeds k* and TFBC (when it is readable). An answer
 *   that is not final (src/tasks/finality.ts) is never correct: cut off while the model was still writing after
 *   it → truncation, taken back in prose → format, hedged with a second answer → reasoning.
 * - format: a whole-response format issue, an unreadable step, no trace step at all, or a complete trace
 *   without a readable answer. (Deliberate: a trace cut off before its answer — or an output cut off by
 *   the token limit before its first step — is Truncation, not Format.)
 * - truncation: finish reason `length`, or fewer trace steps than N.
 * - constraint: any step or the answer breaks a structural rule.
 * - reasoning: a well-formed, complete response with a wrong answer.
 */
export function classify(reading: CcbReading, truth: CcbTruth, text: string, context: GradeContext = {}): CcbOutcome {
  const cutOff = context.finishReason === 'length';
  const depth = truth.steps.length;
  // TFBC and k* are defined over parseable traces only (paper 000 §3): a trace with no readable step, or an
  // unreadable one, is neither a lucky guess nor a divergence at step 1.
  const traceReadable = reading.steps.length > 0 && reading.steps.every((step) => step.formatIssue === undefined);
  const kStar = traceReadable ? divergenceStep(truth.steps, reading.steps) : -1;
  // An answer the text after it takes back, hedges or was still writing past is not the final answer: it is
  // never Correct (docs/outputs.md, "The final answer").
  const finality = finalityOf(text, reading.answer === null ? null : (reading.answerEnd ?? null), context.finishReason);
  const answerMatches = reading.answer !== null && truth.answer !== '' && reading.answer.norm === truth.answer;
  const answerCorrect = finality.kind === 'final' && answerMatches;
  const tfbc = answerCorrect && kStar !== -1;
  const notes = reading.notes ?? [];
  const outcome = (kind: CcbOutcome['kind'], issues: string[]): CcbOutcome => ({
    family: 'ccb',
    kind,
    answerCorrect,
    answerParsed: reading.answer !== null && (finality.kind === 'final' || finality.kind === 'hedged'),
    traceReadable,
    kStar,
    tfbc,
    issues: [...notes, ...issues],
  });

  if (text.trim() === '' && !cutOff) {
    // An empty completion is the model's output, not a transport fault: `api` (missing data) is reserved
    // for requests that never produced a response. The release re-ran empty D3 outputs as API errors;
    // counting them as missing would hide a failure mode and inflate p_d.
    return {
      family: 'ccb',
      kind: 'format',
      answerCorrect: false,
      answerParsed: false,
      traceReadable: false,
      kStar: -1,
      tfbc: false,
      issues: ['empty response: no trace and no ANSWER'],
    };
  }

  // A response can hold any number of steps: the per-step issues list the first ones (at least N of them).
  const stepIssues = (issueOf: (step: StateReading) => string | undefined, what: string): string[] =>
    listBounded(
      reading.steps.flatMap((step, i) => {
        const issue = issueOf(step);
        return issue ? [`step ${i + 1}: ${issue}`] : [];
      }),
      what,
      Math.max(LIST_MAX, depth),
    );

  // An output cut off before its first step is a truncation, whatever its (missing) keywords.
  const formatIssues = cutOff && reading.steps.length === 0 ? [] : [...reading.formatIssues];
  formatIssues.push(...stepIssues((step) => step.formatIssue, 'steps with a format issue'));
  if (reading.steps.length === 0 && !cutOff) formatIssues.push('no trace step could be parsed');
  if (reading.answer === null && reading.steps.length >= depth && !cutOff) {
    formatIssues.push('no ANSWER could be parsed');
  }
  if (reading.answer?.formatIssue) formatIssues.push(`answer: ${reading.answer.formatIssue}`);
  if (finality.kind === 'retracted') formatIssues.push(finality.issue);

  const constraintIssues = stepIssues((step) => step.constraintIssue, 'steps breaking a constraint');
  if (reading.answer?.constraintIssue) constraintIssues.push(`answer: ${reading.answer.constraintIssue}`);

  const truncationIssues: string[] = [];
  if (cutOff) truncationIssues.push('generation stopped at the token limit (finish reason length)');
  if (reading.steps.length < depth) truncationIssues.push(`trace has ${reading.steps.length} of ${depth} steps`);
  if (finality.kind === 'cut-off') truncationIssues.push(finality.issue);

  const traceNote = !traceReadable
    ? ['trace unreadable: no k* and no TFBC for this trial']
    : kStar === -1
      ? []
      : [`trace first diverges at step ${kStar}`];
  if (answerCorrect) return outcome('correct', [...traceNote, ...formatIssues, ...constraintIssues]);
  if (formatIssues.length > 0) return outcome('format', formatIssues);
  if (truncationIssues.length > 0) return outcome('truncation', truncationIssues);
  if (constraintIssues.length > 0) return outcome('constraint', [...constraintIssues, ...traceNote]);
  const answerNote =
    finality.kind === 'hedged'
      ? finality.issue
      : reading.answer === null
        ? 'no answer'
        : `wrong answer ${echo(reading.answer.norm)}`;
  return outcome('reasoning', [answerNote, ...traceNote]);
}
