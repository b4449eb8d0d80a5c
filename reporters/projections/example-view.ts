import type { CellResult } from '../../src/schema/cell.js';
import type { ExampleTrace, TrialExample } from '../../src/schema/example.js';
import { isMissingKind, OUTCOME_RECORDS } from '../../src/tasks/outcome.js';

/**
 * A cell's examples as both the HTML report and `ceilingbench show` present them: the same rows, the same words.
 * Pure; the texts are still untrusted (each renderer escapes them its own way).
 */

export type TraceRow =
  /** Steps not listed: before the window they equal the canonical trace; after it they are only counted. */
  | { kind: 'elided'; note: string }
  | {
      kind: 'step';
      step: number;
      model: string | null;
      canonical: string | null;
      /** `divergent`: the first step that differs (k*'s step); `differs`: a later one that differs too. */
      status: 'match' | 'divergent' | 'differs';
      issue?: string;
    }
  | { kind: 'answer'; model: string | null; canonical: string; matches: boolean };

const span = (from: number, to: number): string => (from === to ? `step ${from}` : `steps ${from}–${to}`);

/** The trace's rows in order: elided steps, the window around the first divergent step, the answer block last. */
export function traceRows(trace: ExampleTrace): TraceRow[] {
  const rows: TraceRow[] = [];
  const first = trace.steps[0]?.step;
  const last = trace.steps.at(-1)?.step;
  if (first !== undefined && first > 1) {
    rows.push({ kind: 'elided', note: `${span(1, first - 1)}: the same state as the canonical trace` });
  }
  for (const s of trace.steps) {
    const same = s.model !== null && s.model === s.canonical;
    const status = same ? 'match' : s.step === trace.divergence ? 'divergent' : 'differs';
    rows.push({
      kind: 'step',
      step: s.step,
      model: s.model,
      canonical: s.canonical,
      status,
      ...(s.issue !== undefined ? { issue: s.issue } : {}),
    });
  }
  const longest = Math.max(trace.modelSteps, trace.canonicalSteps);
  if (last !== undefined && last < longest) {
    rows.push({
      kind: 'elided',
      note: `${span(last + 1, longest)} not shown (the model wrote ${trace.modelSteps} steps, the canonical trace has ${trace.canonicalSteps})`,
    });
  }
  rows.push({ kind: 'answer', ...trace.answer });
  return rows;
}

/** One line naming the example: outcome kind, which trial, k*, finish reason. */
export function exampleHeadline(example: TrialExample): string {
  const parts = [
    example.kind,
    `seed ${example.seed}`,
    `trial ${example.trialIndex}`,
    ...(example.kStar > 0 ? [`k* ${example.kStar}`] : []),
    `finish ${example.finishReason ?? 'unknown'}`,
  ];
  return parts.join(' · ');
}

/**
 * The cell's name as its test is named (`d2 · N=15`, `hanoi · L3`, `count · len=32`; project first when the task
 * is not named after it), then the variant and the subject.
 */
export function cellLabel(cell: CellResult): string {
  const axis =
    cell.levelKind === 'depth'
      ? `N=${cell.level}`
      : cell.levelKind === 'level'
        ? `L${cell.level}`
        : `len=${cell.level}`;
  const head = cell.project === cell.task ? cell.task : `${cell.project} › ${cell.task}`;
  return [head, axis, `variant ${cell.variant}`, ...(cell.subject !== undefined ? [cell.subject] : [])].join(' · ');
}

/** What the cell's accuracy says, for the line above its examples. */
export function cellOutcomeLine(cell: CellResult): string {
  const tallies = Object.entries(cell.outcomes)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${n} ${kind}`)
    .join(', ');
  const accuracy = cell.accuracy === null ? 'accuracy —' : `accuracy ${(cell.accuracy * 100).toFixed(1)}%`;
  return `${accuracy} of ${cell.n} trials (${tallies})`;
}

/** Whether an example's kind is a failure of the model: neither its family's success nor missing data. */
export const isFailureKind = (cell: Pick<CellResult, 'family'>, kind: string): boolean =>
  OUTCOME_RECORDS[cell.family].success !== kind && !isMissingKind(cell.family, kind, 'release');

/** Whether the cell has an example of a failure of the model. */
export const hasFailure = (cell: CellResult): boolean => (cell.examples ?? []).some((e) => isFailureKind(cell, e.kind));
