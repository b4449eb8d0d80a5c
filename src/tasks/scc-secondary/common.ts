/**
 * What the dual-task and agent-operation runners of paper 003 share (`count_scatter_control_common.py`):
 * the JSON-only system instruction, the comma-separated marker sequence and the chars/4 token estimate.
 */

/** The authors' system instruction for both runners, verbatim (docs/spec/scc.md §12). */
export const JSON_SYSTEM_INSTRUCTION =
  'You are being evaluated. Answer the requested task exactly. Return only a single JSON object with the ' +
  'requested keys. Do not include markdown, comments, hidden reasoning, or extra text.';

/** `", ".join(marker for _ in range(max(0, count)))`. */
export function markerSequence(count: number, marker = 'a'): string {
  if (count <= 0) return '';
  return `${marker}${`, ${marker}`.repeat(count - 1)}`;
}

/**
 * `estimate_tokens`: the authors use tiktoken cl100k_base and fall back to max(1, ceil(chars / 4)) when it is
 * missing. ceilingbench has no tokenizer, so it always uses the fallback (documented in docs/scc-secondary.md).
 * Characters are counted as Python does (code points), not UTF-16 units.
 */
export function estimatePromptTokens(text: string): number {
  let chars = 0;
  for (const _ of text) chars++;
  return Math.max(1, Math.ceil(chars / 4));
}
