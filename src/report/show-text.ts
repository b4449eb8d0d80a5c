import type { CellResult } from '../schema/cell.js';
import type { BoundedText, TrialExample } from '../schema/example.js';
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

function traceLine(row: TraceRow): Line {
  if (row.kind === 'elided') return [{ text: `      … ${row.note}`, mark: 'dim' }];
  if (row.kind === 'answer') {
    const verdict = row.matches ? 'right answer' : 'wrong answer';
    return [
      {
        text: `  ${pad('answer', 6)} ${pad(cell(row.model), COLUMN)}${pad(cell(row.canonical), COLUMN)}`,
        mark: 'strong',
      },
      { text: verdict, mark: row.matches ? 'strong' : 'divergent' },
    ];
  }
  const lead = row.status === 'divergent' ? '> ' : '  ';
  const text = `${lead}${String(row.step).padStart(6)} ${pad(cell(row.model), COLUMN)}${pad(cell(row.canonical), COLUMN)}`;
  const issue = row.issue !== undefined ? [{ text: `  (${row.issue})` }] : [];
  if (row.status === 'divergent') return [{ text: `${text}← first divergent step`, mark: 'divergent' }, ...issue];
  if (row.status === 'differs') return [{ text: `${text}differs` }, ...issue];
  return [{ text }, ...issue];
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
    lines.push([{ text: `  ${pad('  step', 8)} ${pad('model', COLUMN)}${pad('canonical', COLUMN)}`, mark: 'dim' }]);
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
