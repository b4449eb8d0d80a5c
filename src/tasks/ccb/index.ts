/**
 * The Complexity Ceiling Benchmark task families D1, D2, D3 (paper 000; release semantics in
 * docs/spec/ccb.md). Profiles: `official` (bit-identical to the released generator) and `paper`
 * (docs/spec/ccb.md §7: D1 grid integrity, D2 seven distinct digits, D3 optional query pair via `{ query: true }`).
 *
 * Deliberate deviations from the released grading code, each a fix or a generalisation:
 * - One precedence for all domains (api → correct → format → truncation → constraint → reasoning, docs/spec/ccb.md §6.0).
 * - States are compared without the model's `Step i:` label (k* is positional); D2 registers compare in
 *   A..G order and D3 pairs as a set, so key/pair order and whitespace never change a verdict.
 * - Parsers also accept spaces before `:` in step headers, between brackets (`] ]`) and around `=`.
 * - A cut-off trace without an ANSWER is Truncation (the release's D2 F4 and D3 answer rule made it Format);
 *   a complete trace without an ANSWER, or no trace step at all, is Format (D3: even when `TRACE` appears).
 * - An empty completion is Format, not API: `api` is reserved for requests that produced no response
 *   (the release re-ran empty D3 outputs as API errors, which would hide a model failure as missing data).
 * - D2: a negative value is a Constraint (out of range) rather than an unparsable step; D2's ANSWER is
 *   checked with the same constraint rules as the steps; D1 (paper) checks the answer's integrity too.
 * - D3: the last step ends at the ANSWER keyword (the release let the answer's pairs leak into it); a pair
 *   listed twice in one step and a malformed pair-shaped token (`AK:F`) are Constraint (issue 3); `P01P02:F`
 *   labels are read everywhere, so Var B answers grade like letter answers.
 * - Prompts: D1's verbose suffix is actually sent; Var A adds a strict schema (the release's D3 Var A equals
 *   Standard); Var B relabels only people (not the F tag) and also the user's events; Var C adds the explicit
 *   sign mapping; D1/D2 A/B/C are ceilingbench's own additive sections (the release defines them for D3 only).
 */
export { d1Task } from './d1/index.js';
export { d2Task } from './d2/index.js';
export { d3Task } from './d3/index.js';
export { ccbTasks } from './families.js';
export type { CcbPlugin } from './plugin.js';
export type { CcbReading, StateReading } from './reading.js';
export * from './types.js';
