import { PyRandom } from '../../src/rng/index.js';
import { generateCell } from '../../src/tasks/instances.js';
import { isSuccess, OUTCOME_RECORDS, type OutcomeFamily, type TrialOutcome } from '../../src/tasks/outcome.js';
import type { AnyTaskPlugin, FinishReason, GradeContext, TaskInstance } from '../../src/tasks/task.js';
import { REASONING_WRAPPERS } from '../tasks/reasoning-wrappers.js';

/**
 * The symmetry contract (docs/outputs.md, "What counts"): whether a trial is counted or set aside is decided from
 * the response's form, before its answer is compared with the truth. Metamorphic: for every response shape a
 * grader accepts, swapping the final answer between the canonical one and a wrong one of the same form never
 * moves the trial between counted (Correct / Reasoning / Constraint, Pass / Fail, Exact / Inexact) and set aside
 * (no readable final answer: Format / Truncation, Collapse, Unparsed). One helper for every registered plugin.
 */

/** The kinds that say "no readable, complete, final answer": each record's set-aside kinds and their equivalents. */
export const NO_ANSWER_KINDS: { readonly [F in OutcomeFamily]: readonly string[] } = {
  ccb: OUTCOME_RECORDS.ccb.setAside,
  puzzle: ['collapse'],
  count: ['unparsed'],
};

export const isCounted = (o: TrialOutcome): boolean => !NO_ANSWER_KINDS[o.family].includes(o.kind);

/** A response split into the text before its final answer (the trace) and the final answer itself. */
interface Anatomy {
  trace: string;
  answer: string;
}

/**
 * Where the final answer starts: the last line that starts at the left margin with something other than a closing
 * bracket (`2. ANSWER: …`, `moves = [` of a multi-line block, `FINAL: 3`, a bare count or JSON object).
 */
export function anatomy(response: string): Anatomy {
  const lines = response.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    if (/^[^\s\]})]/.test(lines[i])) {
      return { trace: lines.slice(0, i).join('\n').trim(), answer: lines.slice(i).join('\n') };
    }
  }
  return { trace: '', answer: response };
}

/**
 * The same answer with one value changed, after its keyword (`2. ANSWER:` keeps its number): an F/R pair tag
 * flipped, else the last digit run moved by one, else a quarter turn made a counter-turn.
 */
function mutated(answer: string): string | null {
  const keyword = /^(?:\d+\.\s*)?ANSWER\s*:/i.exec(answer);
  const at = keyword === null ? 0 : keyword[0].length;
  const [head, body] = [answer.slice(0, at), answer.slice(at)];
  if (/\b[A-J]{2}:[FR]\b/.test(body))
    return head + body.replace(/:([FR])\b/, (_, t: string) => (t === 'F' ? ':R' : ':F'));
  const digits = [...body.matchAll(/\d+/g)].at(-1);
  if (digits !== undefined) {
    const n = Number(digits[0]);
    const changed = String(n % 10 === 9 ? n - 1 : n + 1);
    return head + body.slice(0, digits.index) + changed + body.slice(digits.index + digits[0].length);
  }
  const turn = /"([A-Z])('?)"/.exec(body);
  if (turn !== null) return head + body.replace(turn[0], `"${turn[1]}${turn[2] ? '' : "'"}"`);
  return null;
}

/**
 * A wrong final answer of the canonical one's form: the plain response with it is graded counted and not a
 * success. From the simulated model's answers first (a weak model, bounded search), then a one-value mutation.
 */
export function wrongAnswer(plugin: AnyTaskPlugin, instance: TaskInstance, canonical: Anatomy): string | null {
  const candidates: string[] = [];
  for (let s = 0; s < 12; s++) {
    const text = plugin.simulate(instance, new PyRandom(1000 + s), { retention: 0, recover: 0, capacity: 1 });
    candidates.push(anatomy(text).answer);
  }
  const mutation = mutated(canonical.answer);
  if (mutation !== null) candidates.push(mutation);
  for (const answer of candidates) {
    if (answer === canonical.answer) continue;
    const outcome = plugin.grade(instance, join(canonical.trace, answer), { finishReason: 'stop' });
    if (isCounted(outcome) && !isSuccess(outcome)) return answer;
  }
  return null;
}

const join = (...parts: string[]): string => parts.filter((p) => p !== '').join('\n');

const PROSE = 'Let me work through this carefully, one operation at a time.';

/** The trace cut short and abbreviated with an ellipsis, as chat models do at depth (the prompt forbids it). */
function abbreviated(trace: string): string {
  if (trace === '') return `${PROSE}\n...`;
  const cut = trace.lastIndexOf(', ', Math.floor(trace.length / 3));
  const head = cut > 0 ? trace.slice(0, cut) : trace.split('\n')[0];
  return `${head}, ...\n... (remaining steps omitted) ...`;
}

/** The answer with its keyword replaced (an answer line that starts with `ANSWER:`) or prefixed (any other). */
function withKeyword(answer: string, keyword: string): string {
  const m = /^(?:\d+\.\s*)?ANSWER\s*:\s*/i.exec(answer);
  return m !== null ? `${keyword} ${answer.slice(m[0].length)}` : `${keyword} ${answer}`;
}

/** The answer keywords models write: the prompt's, its case variants, `Final answer:`, Markdown-bold ones. */
export const ANSWER_KEYWORDS = [
  'ANSWER:',
  'Answer:',
  'Final answer:',
  'Final Answer:',
  'FINAL ANSWER:',
  '**ANSWER:**',
  '**Final answer:**',
  'The final answer is:',
] as const;

/** Reasoning in the Sky-T1 / OpenThoughts template: `<|begin_of_thought|>…<|end_of_thought|>`, then the solution. */
const beginOfThought = (trace: string, answer: string) =>
  `<|begin_of_thought|>\n\n${trace}\n\n<|end_of_thought|>\n\n<|begin_of_solution|>\n\n${answer}\n\n<|end_of_solution|>`;

/** One response shape: the text around a trace and a final answer, and the user delimiters it needs. */
export interface ResponseShape {
  name: string;
  build(trace: string, answer: string): string;
  context?: GradeContext;
}

/** Every response shape the graders accept, around a trace and a final answer. */
export const RESPONSE_SHAPES: readonly ResponseShape[] = [
  { name: 'plain', build: (t, a) => join(t, a) },
  { name: 'prose before the trace', build: (t, a) => join(PROSE, t, a) },
  { name: 'missing trace', build: (_t, a) => a },
  { name: 'abbreviated trace (...)', build: (t, a) => join(abbreviated(t), a) },
  { name: 'restated answer', build: (t, a) => join(t, a, '', 'So the final answer is:', a) },
  { name: 'answer in a code fence', build: (t, a) => join(t, '```', a, '```') },
  { name: 'answer repeated in a loop', build: (t, a) => join(t, a, a, a) },
  { name: 'answer then a markup comment', build: (t, a) => join(t, a, '<!-- checked every step -->') },
  {
    name: 'answer in full-width characters',
    build: (t, a) =>
      join(
        t,
        a.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)),
      ),
  },
  ...ANSWER_KEYWORDS.map((k) => ({
    name: `keyword ${k}`,
    build: (t: string, a: string) => join(t, withKeyword(a, k)),
  })),
  ...REASONING_WRAPPERS.flatMap((w) => [
    {
      name: `reasoning ${w.name}`,
      build: (t: string, a: string) => w.closed(t || PROSE, a, ''),
      context: { reasoningDelimiters: w.delimiters },
    },
    ...(w.prefilled === null
      ? []
      : [
          {
            name: `reasoning ${w.name} (opening pre-filled)`,
            build: (t: string, a: string) => (w.prefilled ?? w.closed)(t || PROSE, a, ''),
            context: { reasoningDelimiters: w.delimiters },
          },
        ]),
  ]),
  { name: 'reasoning <|begin_of_thought|>', build: (t, a) => beginOfThought(t || PROSE, a) },
  {
    name: 'reasoning <|begin_of_thought|>, only the answer visible',
    build: (t, a) => beginOfThought(t || PROSE, a).replace(/<\|(?:begin|end)_of_solution\|>/g, ''),
  },
];

/** The finish reasons a response comes back with: stopped, cut at the token limit, unknown (replay). */
export const FINISH_REASONS: readonly FinishReason[] = ['stop', 'length', null];

export interface SymmetryBreak {
  task: string;
  shape: string;
  finishReason: FinishReason;
  right: string;
  wrong: string;
}

/**
 * Every (shape, finish reason) where the canonical and the wrong answer are graded on different sides of
 * counted / set aside, or where the wrong answer succeeds, for `levels` (default: the first two) and `seeds`
 * instances each. Throws when no wrong answer of the canonical form is found (the contract would hold vacuously).
 */
export function answerSymmetryBreaks(
  plugin: AnyTaskPlugin,
  options: { levels?: readonly number[]; seeds?: number } = {},
): SymmetryBreak[] {
  const breaks: SymmetryBreak[] = [];
  for (const level of options.levels ?? plugin.levels.values.slice(0, 2)) {
    for (const instance of generateCell(plugin, level, options.seeds ?? 1, { seedOffset: 11 })) {
      const canonical = anatomy(plugin.canonicalResponse(instance));
      const wrong = wrongAnswer(plugin, instance, canonical);
      if (wrong === null) throw new Error(`task '${plugin.id}' level ${level}: no wrong answer of the canonical form`);
      for (const shape of RESPONSE_SHAPES) {
        for (const finishReason of FINISH_REASONS) {
          const grade = (answer: string) =>
            plugin.grade(instance, shape.build(canonical.trace, answer), { ...shape.context, finishReason });
          const right = grade(canonical.answer);
          const bad = grade(wrong);
          if (isCounted(right) !== isCounted(bad) || isSuccess(bad)) {
            breaks.push({ task: plugin.id, shape: shape.name, finishReason, right: right.kind, wrong: bad.kind });
          }
        }
      }
    }
  }
  return breaks;
}
