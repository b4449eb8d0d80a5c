import { chainRender, chainSystemPrompt, strictSchema } from '../variants.js';
import type { D1Instance } from './generate.js';
import { applyD1, D1_OPS } from './grid.js';
import { D1_OPERATIONS, D1_OUTPUT_FORMAT } from './release-text.js';

/** The release's `SYSTEM_PROMPT` (alien_grid_main.py), byte for byte. */
export const D1_SYSTEM_PROMPT =
  'You are a spatial reasoning engine. Track a 3x3 grid (Initial: cells numbered 1-9 reading top-left to bottom-right, i.e. [[1,2,3],[4,5,6],[7,8,9]]).\n\n' +
  D1_OPERATIONS +
  '\n\n' +
  'SPATIAL LOGIC EXAMPLE:\nInitial Grid: [[1, 2, 3], [4, 5, 6], [7, 8, 9]]\nOperation: SHIFT_ROW_2_LEFT\nResult: [[1, 2, 3], [5, 6, 4], [7, 8, 9]]\n\n' +
  D1_OUTPUT_FORMAT;

/** run_ablation.py builds this verbose suffix but never sends it (docs/spec/ccb.md §9); ceilingbench sends it. */
const VERBOSE = 'After EACH step, explicitly restate full grid.';

const PAPER_INTEGRITY =
  'GRID INTEGRITY CONSTRAINT: every grid in TRACE and ANSWER must contain each number 1-9 exactly once (no two entities may collide in one cell).';

/** Where each cell's value comes from, derived from the operations themselves (slot k = row-major cell k). */
function sourceSlots(op: (typeof D1_OPS)[number]): number[] {
  const labelled = [
    [1, 2, 3],
    [4, 5, 6],
    [7, 8, 9],
  ];
  return applyD1(op, labelled).flat();
}

const slot = (k: number): string => `P0${k}`;
const coord = (k: number): string => `(${Math.ceil(k / 3)},${((k - 1) % 3) + 1})`;

const SLOTS = [
  'POSITION SLOTS: the nine cells are fixed slots P01..P09, numbered row by row:',
  '  P01 P02 P03',
  '  P04 P05 P06',
  '  P07 P08 P09',
  'Each operation moves values between slots; "P01<-P07" means the new P01 holds the old P07 value:',
  ...D1_OPS.map(
    (op) =>
      `- ${op}: ${sourceSlots(op)
        .map((from, i) => `${slot(i + 1)}<-${slot(from)}`)
        .join(', ')}`,
  ),
].join('\n');

const MAPPING = [
  'EXPLICIT UPDATE MAPPING: for each operation, new value at (row,col) = old value at the listed coordinate.',
  ...D1_OPS.map(
    (op) =>
      `- ${op}: ${sourceSlots(op)
        .map((from, i) => `${coord(i + 1)}=old${coord(from)}`)
        .join(', ')}`,
  ),
].join('\n');

const SCHEMA = strictSchema('the full grid as [[a, b, c], [d, e, f], [g, h, i]]');

const SECTIONS = { verbose: VERBOSE, schema: SCHEMA, slots: SLOTS, mapping: MAPPING };

export const systemPromptD1 = chainSystemPrompt(D1_SYSTEM_PROMPT, PAPER_INTEGRITY, SECTIONS);

export const renderD1 = chainRender<D1Instance>(systemPromptD1);
