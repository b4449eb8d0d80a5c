import { echo, LIST_MAX, listBounded } from '../echo.js';
import { type AnswerEnd, type Finality, finalityOf } from '../finality.js';
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
 * The six-way classification. Two precedences (docs/outputs.md, "What counts"), chosen by `context.reading`:
 *
 * - 'final' (the default: sweeps, gates, leaderboards), the symmetric rule: whether the trial counts is decided
 *   from the response's form before its answer is compared with the truth. A readable, complete, final answer is
 *   counted (correct, constraint or reasoning) whatever its trace looks like (short, abbreviated with `...`,
 *   inside reasoning markup, missing) and whatever the finish reason; without one the trial is set aside:
 *   truncation when the output was cut (finish reason `length`, or a trace cut short before any answer), format
 *   otherwise. Test: test/tasks/answer-symmetry.test.ts.
 * - 'authors': the release's precedence (docs/spec/ccb.md §6.0, the D3 order applied to every domain), for a
 *   reproduction of its published tables: api → correct → format → truncation → constraint → reasoning, so a
 *   right answer is Correct where a wrong one in the same shape is Format or Truncation.
 *
 * Under both, an answer that is not final (src/tasks/finality.ts) is never correct: cut off while the model was
 * still writing after it → truncation, taken back in prose → format, hedged or offered among alternatives →
 * reasoning. An empty response that was not cut off is Format (an empty completion is the model's output).
 */
export function classify(reading: CcbReading, truth: CcbTruth, text: string, context: GradeContext = {}): CcbOutcome {
  const evidence = weigh(reading, truth, text, context);
  if (text.trim() === '' && !evidence.cutOff) {
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
  return context.reading === 'authors' ? byAuthorsPrecedence(evidence) : bySymmetricRule(evidence, reading);
}

/** What a grade is decided from: the issues by kind, the finality of the answer, and the outcome builder. */
interface Evidence {
  cutOff: boolean;
  finality: Finality;
  answerCorrect: boolean;
  formatIssues: string[];
  truncationIssues: string[];
  constraintIssues: string[];
  traceNote: string[];
  answerNote: string;
  outcome(kind: CcbOutcome['kind'], issues: string[]): CcbOutcome;
}

function weigh(reading: CcbReading, truth: CcbTruth, text: string, context: GradeContext): Evidence {
  const cutOff = context.finishReason === 'length';
  const depth = truth.steps.length;
  // TFBC and k* are defined over parseable traces only (paper 000 §3): a trace with no readable step, or an
  // unreadable one, is neither a lucky guess nor a divergence at step 1.
  const traceReadable = reading.steps.length > 0 && reading.steps.every((step) => step.formatIssue === undefined);
  const kStar = traceReadable ? divergenceStep(truth.steps, reading.steps) : -1;
  // An answer the text after it takes back, hedges or was still writing past is not the final answer: it is
  // never Correct (docs/outputs.md, "The final answer").
  const finality = finalityOf(
    text,
    reading.answer === null ? null : (reading.answerEnd ?? null),
    context.finishReason,
    context.reading,
  );
  const answerMatches = reading.answer !== null && truth.answer !== '' && reading.answer.norm === truth.answer;
  const answerCorrect = finality.kind === 'final' && answerMatches;
  const tfbc = answerCorrect && kStar !== -1;
  const notes = reading.notes ?? [];

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
  const answerNote =
    finality.kind === 'hedged'
      ? finality.issue
      : reading.answer === null
        ? 'no answer'
        : `wrong answer ${echo(reading.answer.norm)}`;
  return {
    cutOff,
    finality,
    answerCorrect,
    formatIssues,
    truncationIssues,
    constraintIssues,
    traceNote,
    answerNote,
    outcome: (kind, issues) => ({
      family: 'ccb',
      kind,
      answerCorrect,
      answerParsed: reading.answer !== null && (finality.kind === 'final' || finality.kind === 'hedged'),
      traceReadable,
      kStar,
      tfbc,
      issues: [...notes, ...issues],
    }),
  };
}

/** The release's precedence: correct → format → truncation → constraint → reasoning (reading 'authors'). */
function byAuthorsPrecedence(e: Evidence): CcbOutcome {
  if (e.answerCorrect) return e.outcome('correct', [...e.traceNote, ...e.formatIssues, ...e.constraintIssues]);
  if (e.formatIssues.length > 0) return e.outcome('format', e.formatIssues);
  if (e.truncationIssues.length > 0) return e.outcome('truncation', e.truncationIssues);
  if (e.constraintIssues.length > 0) return e.outcome('constraint', [...e.constraintIssues, ...e.traceNote]);
  return e.outcome('reasoning', [e.answerNote, ...e.traceNote]);
}

/**
 * The symmetric rule (reading 'final'): first, from the form alone, is there a readable, complete, final answer?
 * Without one the trial is set aside — truncation when the output was cut (at the token limit, after the answer
 * while still writing, or before any answer with a trace shorter than N), format otherwise. With one it is
 * counted: correct, constraint or reasoning; what the trace looked like is a note, never the verdict.
 */
function bySymmetricRule(e: Evidence, reading: CcbReading): CcbOutcome {
  const answer = reading.answer;
  const readable = answer !== null && answer.formatIssue === undefined;
  if (e.finality.kind === 'retracted') return e.outcome('format', [e.finality.issue]);
  if (!readable || e.finality.kind === 'cut-off') {
    // no readable, complete, final answer: set aside, and the kind says why
    if (e.cutOff || e.finality.kind === 'cut-off') return e.outcome('truncation', e.truncationIssues);
    if (e.formatIssues.length > 0) return e.outcome('format', e.formatIssues);
    if (e.truncationIssues.length > 0) return e.outcome('truncation', e.truncationIssues);
    return e.outcome('format', ['no ANSWER could be parsed']);
  }
  // Counted. The trace's own format issues and a short trace decide nothing here: they are kept as notes.
  const traceNotes = [...e.formatIssues, ...e.truncationIssues];
  if (e.answerCorrect) return e.outcome('correct', [...e.traceNote, ...traceNotes, ...e.constraintIssues]);
  if (e.finality.kind === 'hedged') return e.outcome('reasoning', [e.answerNote, ...e.traceNote, ...traceNotes]);
  if (e.constraintIssues.length > 0)
    return e.outcome('constraint', [...e.constraintIssues, ...e.traceNote, ...traceNotes]);
  return e.outcome('reasoning', [e.answerNote, ...e.traceNote, ...traceNotes]);
}
