import type { CellResult } from '../../src/schema/cell.js';
import type { BoundedText, TrialExample } from '../../src/schema/example.js';
import { cellLabel, cellOutcomeLine, exampleHeadline, type TraceRow, traceRows } from './example-view.js';

/**
 * The examples as terminal text (`ceilingbench show`): the rows index.html shows, as lines of segments. A segment
 * marked `divergent` (the first divergent step) or `strong` (headlines, the answer block) is highlighted by the
 * caller when its stdout is a terminal; the text itself says the same in words, so plain output loses nothing.
 * The texts are untrusted: the caller passes every segment through terminalSafe.
 */

export type Mark = 'divergent' | 'strong' | 'dim';
export interface Segment {
  text: string;
  mark?: Mark;
}
export type Line = Segment[];

/** Column width of a state: states longer than this run past it (they are bounded already). */
const COLUMN = 40;

const cell = (text: string | null): string => (text === null ? '(none)' : text);
const pad = (text: string, width: number): string => (text.length >= width ? `${text} ` : text.padEnd(width));

/** A row of the trace table: a lead (`>` at the divergent step), the step, the two states, and a tag. */
const row = (lead: string, step: string, model: string | null, canonical: string | null): string =>
  `${lead}${step.padStart(6)}  ${pad(cell(model), COLUMN)}${pad(cell(canonical), COLUMN)}`;

function traceLine(r: TraceRow): Line {
  if (r.kind === 'elided') return [{ text: `        … ${r.note}`, mark: 'dim' }];
  if (r.kind === 'answer') {
    return [
      { text: row('  ', 'answer', r.model, r.canonical), mark: 'strong' },
      r.matches ? { text: 'right answer', mark: 'strong' } : { text: 'wrong answer', mark: 'divergent' },
    ];
  }
  const issue = r.issue !== undefined ? [{ text: `  (${r.issue})` }] : [];
  if (r.status === 'divergent') {
    return [
      { text: `${row('> ', String(r.step), r.model, r.canonical)}← first divergent step`, mark: 'divergent' },
      ...issue,
    ];
  }
  const text = row('  ', String(r.step), r.model, r.canonical);
  return [{ text: r.status === 'differs' ? `${text}differs` : text.trimEnd() }, ...issue];
}

const indented = (text: string, by: string): Line[] => text.split('\n').map((l) => [{ text: `${by}${l}` }]);

function textBlock(what: string, text: BoundedText): Line[] {
  const cut = text.text.length < text.chars ? `, shown cut to ${text.text.length}` : '';
  return [[{ text: `    ${what} (${text.chars} chars${cut}):` }], ...indented(text.text, '      ')];
}

function exampleLines(example: TrialExample): Line[] {
  const lines: Line[] = [[{ text: `  ${exampleHeadline(example)}`, mark: 'strong' }]];
  for (const issue of example.issues) lines.push([{ text: `    - ${issue}` }]);
  if (example.trace) {
    lines.push([{ text: row('  ', 'step', 'model', 'canonical').trimEnd(), mark: 'dim' }]);
    lines.push(...traceRows(example.trace).map(traceLine));
  }
  if (example.answer) lines.push(...textBlock('final answer', example.answer));
  else lines.push([{ text: '    no response (missing data)' }]);
  if (example.reasoning) lines.push(...textBlock('reasoning', example.reasoning));
  lines.push([{ text: `    prompt sha256 ${example.promptSha256}`, mark: 'dim' }]);
  if (example.cacheKey !== undefined) lines.push([{ text: `    response cache key ${example.cacheKey}`, mark: 'dim' }]);
  return lines;
}

/** One cell's block: its name and outcome line, then each example. */
export function cellLines(result: CellResult, examples: readonly TrialExample[]): Line[] {
  const lines: Line[] = [[{ text: `${cellLabel(result)} — ${cellOutcomeLine(result)}`, mark: 'strong' }]];
  for (const example of examples) lines.push([{ text: '' }], ...exampleLines(example));
  return lines;
}
