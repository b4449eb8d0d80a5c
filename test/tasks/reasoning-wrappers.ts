import { HARMONY, REASONING_CHANNELS, type ReasoningDelimiter } from '../../src/tasks/reasoning-channels.js';

/**
 * Every way the delimiter table (src/tasks/reasoning-channels.ts) lets a model put reasoning in its content, as
 * response builders for the tests: a closed block before the final answer, the same with the opening pre-filled
 * by the chat template (null where the form has none), and a block the output ended in. Derived from the table,
 * so a new entry is tested without a test edit; `extra` is a delimiter the user adds.
 */
export interface ReasoningWrapper {
  name: string;
  /** Reasoning holding `draft`, then `final` as the answer. */
  closed: (draft: string, final: string, prose: string) => string;
  /** The same when the template wrote the opening: the content starts inside the reasoning. */
  prefilled: ((draft: string, final: string, prose: string) => string) | null;
  /** `before` (may be empty), then reasoning holding `draft` that is never closed. */
  unclosed: (before: string, draft: string) => string;
  /** The user's delimiters the wrapper needs (GradeContext.reasoningDelimiters). */
  delimiters: readonly ReasoningDelimiter[];
}

const tagged = (name: string, d: ReasoningDelimiter, delimiters: readonly ReasoningDelimiter[] = []) => ({
  name,
  closed: (draft: string, final: string, prose: string) => `${d.open}\n${prose}${draft}\n${d.close}\n${final}`,
  prefilled: (draft: string, final: string, prose: string) => `${prose}${draft}\n${d.close}\n${final}`,
  unclosed: (before: string, draft: string) => `${before}${d.open}\n${draft}\nLet me double-check`,
  delimiters,
});

const { channel, message, start } = HARMONY;
const [end, ret] = HARMONY.ends;

/** A user's delimiter for an unusual template, added through the grade context. */
export const USER_DELIMITER: ReasoningDelimiter = { open: '<scratchpad>', close: '</scratchpad>' };

export const REASONING_WRAPPERS: readonly ReasoningWrapper[] = [
  ...REASONING_CHANNELS.map((c) => tagged(c.name, c)),
  tagged('upper-case think', { open: '<THINK >', close: '</Think>' }),
  tagged('user scratchpad', USER_DELIMITER, [USER_DELIMITER]),
  {
    name: 'harmony',
    closed: (draft, final, prose) =>
      `${start}assistant${channel}analysis${message}${prose}${draft}${end}${start}assistant${channel}final${message}${final}${ret}`,
    prefilled: (draft, final, prose) => `${prose}${draft}${end}${start}assistant${channel}final${message}${final}`,
    unclosed: (before, draft) => `${before}${channel}analysis${message}${draft}\nLet me double-check`,
    delimiters: [],
  },
  {
    name: 'harmony commentary',
    closed: (draft, final, prose) =>
      `${channel}analysis${message}${prose}${end}${start}assistant${channel}commentary${message}${draft}${end}` +
      `${start}assistant${channel}final${message}${final}`,
    prefilled: null,
    unclosed: (before, draft) =>
      `${before}${channel}analysis${message}Plan.${end}${start}assistant${channel}commentary${message}${draft}`,
    delimiters: [],
  },
  {
    name: 'harmony stripped',
    closed: (draft, final, prose) =>
      `${HARMONY.stripped.start}We need to answer. ${prose}${draft}${HARMONY.stripped.final}${final}`,
    prefilled: null,
    // the stripped form is recognised only at the very start: nothing before it
    unclosed: (_before, draft) => `${HARMONY.stripped.start}We need to answer.\n${draft}\nLet me double-check`,
    delimiters: [],
  },
];
