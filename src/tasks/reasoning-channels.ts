/**
 * The reasoning markup models write into their content, as data: `readResponse` (response.ts) sets aside
 * whatever these delimit, for every family, and docs/outputs.md lists each entry. A template this table does
 * not know is added by the user (`reasoningDelimiters` in ceilingbench.config.ts, CEILINGBENCH_REASONING_TAGS),
 * never by a family. Pure data: no Node API.
 */

/** A block of reasoning from `open` to `close`; both are literal text, matched in any case. */
export interface ReasoningDelimiter {
  open: string;
  close: string;
}

/** A known reasoning channel: its delimiters, who writes it, and one example for the docs and tests. */
export interface ReasoningChannel extends ReasoningDelimiter {
  /** A short stable name (test titles, docs). */
  name: string;
  /** The models or templates that write it. */
  writtenBy: string;
}

/**
 * Tagged reasoning blocks. An XML-like tag also matches with spaces before its `>` (`<think >`). A closing
 * delimiter before any opening one ends a block whose opening was pre-filled by the chat template.
 */
export const REASONING_CHANNELS: readonly ReasoningChannel[] = [
  { name: 'think', open: '<think>', close: '</think>', writtenBy: 'DeepSeek-R1 and its distills, QwQ, Qwen3' },
  { name: 'thinking', open: '<thinking>', close: '</thinking>', writtenBy: 'Claude-style and custom templates' },
  { name: 'reasoning', open: '<reasoning>', close: '</reasoning>', writtenBy: 'custom templates' },
  { name: 'thought', open: '<thought>', close: '</thought>', writtenBy: 'Gemma-style and custom templates' },
  { name: 'magistral', open: '[THINK]', close: '[/THINK]', writtenBy: 'Mistral Magistral' },
  { name: 'kimi', open: '◁think▷', close: '◁/think▷', writtenBy: 'Moonshot Kimi (k1.5, VL thinking)' },
  { name: 'seed', open: '<seed:think>', close: '</seed:think>', writtenBy: 'ByteDance Seed-OSS' },
  {
    name: 'open-thoughts',
    open: '<|begin_of_thought|>',
    close: '<|end_of_thought|>',
    writtenBy:
      'Sky-T1, OpenThinker, Bespoke-Stratos (the OpenThoughts template; its answer sits in <|begin_of_solution|>…<|end_of_solution|>)',
  },
];

/** Markers around the answer that carry no answer (the OpenThoughts template's solution block): removed. */
export const ANSWER_MARKERS: readonly string[] = ['<|begin_of_solution|>', '<|end_of_solution|>'];

/**
 * OpenAI Harmony (gpt-oss) served without a Harmony parser: its channel tokens leak into the content. Messages are
 * `<|channel|>NAME<|message|>TEXT` ended by `<|end|>`, `<|return|>` or `<|call|>`, the next `<|start|>` or
 * the next channel. The `final` channel is the answer; every other channel (analysis, commentary) is reasoning.
 * No final channel, or an empty one, is no answer.
 */
export const HARMONY = {
  channel: '<|channel|>',
  message: '<|message|>',
  start: '<|start|>',
  ends: ['<|end|>', '<|return|>', '<|call|>'],
  answerChannel: 'final',
  /**
   * The same with the special tokens stripped by the server: `analysisTEXTassistantfinalANSWER`. Recognised only
   * when the content starts with `analysis` glued to its first word (no space, colon or line break, as no
   * ordinary answer writes it): with `assistantfinal` later, the text after the last one is the answer; without,
   * the output ended in the analysis channel and has no answer.
   */
  stripped: { start: 'analysis', final: 'assistantfinal' },
} as const;
