import type { Prompt } from '../task.js';
import type { CcbInstance, CcbProfile, CcbVariant } from './types.js';

/**
 * Prompt-variant helpers shared by D1 and D2. The release defines the A/B/C variants only for D3 (§9);
 * for D1 and D2 ceilingbench implements the paper's intent with additive sections, keeping the output
 * format unchanged so that every variant is graded by the same parser:
 * - verbose: forced restatement of the full state after every operation;
 * - A: a strict output schema;
 * - B: positional slot markers P01… for the state's positions, operations written as slot maps;
 * - C: an explicit logical mapping (new value ← old value) for every operation.
 */
export function strictSchema(state: string): string {
  return [
    'STRICT OUTPUT SCHEMA (follow exactly):',
    '- Line 1: 1. TRACE: ["Step 1: <STATE>", "Step 2: <STATE>", ..., "Step N: <STATE>"] — exactly one entry per operation, in order, all on this one line.',
    '- Line 2: 2. ANSWER: <STATE>',
    `- <STATE> is ${state}, written on one line.`,
    '- Output nothing else: no preamble, no explanation, no markdown.',
  ].join('\n');
}

export interface VariantSections {
  verbose: string;
  schema: string;
  slots: string;
  mapping: string;
}

/** The standard system prompt plus the section the variant adds. */
export function withVariant(standard: string, variant: CcbVariant, sections: VariantSections): string {
  switch (variant) {
    case 'standard':
      return standard;
    case 'verbose':
      return `${standard}\n${sections.verbose}`;
    case 'A':
      return `${standard}\n\n${sections.schema}`;
    case 'B':
      return `${standard}\n\n${sections.slots}`;
    case 'C':
      return `${standard}\n\n${sections.mapping}`;
  }
}

/** The release's user message: one `Step i: …` line per operation. */
export const stepList = (lines: readonly string[]): string => lines.map((l, i) => `Step ${i + 1}: ${l}`).join('\n');

/**
 * A D1/D2 system prompt: the release's prompt (with the paper profile's extra constraint appended under
 * `paper`), plus the section the variant adds.
 */
export const chainSystemPrompt =
  (release: string, paperConstraint: string, sections: VariantSections) =>
  (profile: CcbProfile, variant: CcbVariant): string =>
    withVariant(profile === 'paper' ? `${release}\n\n${paperConstraint}` : release, variant, sections);

/** A D1/D2 prompt: the system prompt, and the instance's operations as the release's step list. */
export const chainRender =
  <I extends CcbInstance<{ ops: readonly string[] }>>(
    systemPrompt: (profile: CcbProfile, variant: CcbVariant) => string,
  ) =>
  (instance: I, variant: CcbVariant): Prompt => ({
    system: systemPrompt(instance.profile, variant),
    user: stepList(instance.data.ops),
  });

/** The canonical response in the release's requested format. */
export function formatResponse(steps: readonly string[], answer: string): string {
  const trace = steps.map((s, i) => `"Step ${i + 1}: ${s}"`).join(', ');
  return `1. TRACE: [${trace}]\n2. ANSWER: ${answer}`;
}
