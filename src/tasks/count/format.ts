/**
 * The format audit of paper Supplementary Note 4 / Table S2: every response gets one category. The
 * first is the compliant form (strict regex `^\s*[+-]?\d+\s*$`); the others are Table S2's rows.
 * `api` marks a transport failure that returned no text, `budget` a request never sent (spending limit reached or
 * run interrupted): both are missing data, not a model's format.
 * The audit is a reporting statistic; scoring stays the lenient last-integer parser.
 */
export const FORMAT_CATEGORIES = [
  'single-integer',
  'step-by-step',
  'blank',
  'token-limit',
  'prompt-echo',
  'extra-prose',
  'code-markdown',
  'reasoning-tag',
  'no-number',
  'stray-punctuation',
  'api',
  'budget',
] as const;
export type FormatCategory = (typeof FORMAT_CATEGORIES)[number];

/** Table S2's row titles, for reports. */
export const FORMAT_TITLES: Record<FormatCategory, string> = {
  'single-integer': 'Single integer (strict form)',
  'step-by-step': 'Step-by-step counting or explanation',
  blank: 'Blank / whitespace',
  'token-limit': 'Token-limit exhaustion ("overthinking")',
  'prompt-echo': 'Prompt echo / copied sequence',
  'extra-prose': 'Answer with extra prose / instruction leakage',
  'code-markdown': 'Code / markdown formatted output',
  'reasoning-tag': 'Reasoning-tag or hidden-CoT markup',
  'no-number': 'Text with no parseable number',
  'stray-punctuation': 'Number with stray punctuation / formatting',
  api: 'Transport error without text (missing data)',
  budget: 'Not sent: spending limit reached or run interrupted (missing data)',
};
