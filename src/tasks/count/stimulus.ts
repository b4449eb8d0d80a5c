import type { Prompt } from '../task.js';

/** The authors' system instruction, verbatim (paper Supplementary Note 2; docs/spec/scc.md §6.1). */
export const COUNT_SYSTEM_PROMPT =
  'You count items exactly. Return only one integer with no words, punctuation, or explanation.';

/** One repeated-item stimulus: the item (also its label) and the delimiter between items. */
export interface Motif {
  id: string;
  item: string;
  delimiter: string;
}

/** The stimulus ablation of `run_stimulus_ablation.py` (paper Table S11), in config order; the first is the default. */
export const MOTIFS: readonly Motif[] = [
  { id: 'baseline-a-comma', item: 'a', delimiter: ', ' },
  { id: 'letter-b-comma', item: 'b', delimiter: ', ' },
  { id: 'letter-x-comma', item: 'x', delimiter: ', ' },
  { id: 'double-aa-comma', item: 'aa', delimiter: ', ' },
  { id: 'greek-alpha-comma', item: 'α', delimiter: ', ' },
  { id: 'greek-beta-comma', item: 'β', delimiter: ', ' },
  { id: 'chinese-han-comma', item: '汉', delimiter: ', ' },
  { id: 'chinese-zhong-comma', item: '中', delimiter: ', ' },
  { id: 'letter-a-space', item: 'a', delimiter: ' ' },
  { id: 'letter-a-pipe', item: 'a', delimiter: ' | ' },
  { id: 'letter-a-section', item: 'a', delimiter: ' § ' },
];

export const DEFAULT_MOTIF: Motif = MOTIFS[0];

export function resolveMotif(id: string | undefined): Motif {
  if (id === undefined) return DEFAULT_MOTIF;
  const motif = MOTIFS.find((m) => m.id === id);
  if (!motif) throw new Error(`unknown counting motif '${id}'; use one of: ${MOTIFS.map((m) => m.id).join(', ')}`);
  return motif;
}

/** `delimiter.join([item] * n)`: no trailing delimiter. */
export function countSequence(n: number, motif: Motif = DEFAULT_MOTIF): string {
  if (n <= 0) return '';
  return `${motif.item}${`${motif.delimiter}${motif.item}`.repeat(n - 1)}`;
}

export function countUserPrompt(n: number, motif: Motif = DEFAULT_MOTIF): string {
  return `How many occurrences of "${motif.item}" are in this sequence?\n\n${countSequence(n, motif)}`;
}

export function countPrompt(n: number, motif: Motif = DEFAULT_MOTIF): Prompt {
  return { system: COUNT_SYSTEM_PROMPT, user: countUserPrompt(n, motif) };
}

/** The Google fallback when developer instructions are refused: one content string, no system field. */
export function inlinePrompt(prompt: Prompt): string {
  return `${prompt.system}\n\n${prompt.user}`;
}
