import { type AnswerBlock, stepsForFinal } from './answer-blocks.js';

/**
 * Which written steps are the trace of the final answer, by their labels. Within the stretch of steps that goes
 * with the final ANSWER block (stepsForFinal), a model may
 * - start with `Step 0: <initial state>`: the initial state, not step 1, so k* does not flag a divergence at
 *   step 1 when every real step is right;
 * - rewrite the whole trace after noticing a mistake (`Step 1 … Step N`, "wait, redo", `Step 1 … Step N`): the
 *   rewritten trace goes with the answer, not the rejected one.
 * Linear in the number of steps.
 */

const LABEL = /^step\s*(\d+)/i;

/** The number a step header carries (`Step 7:` → 7); −1 when it has none (never expected: headers require one). */
function labelAt(text: string, start: number): number {
  const m = LABEL.exec(text.slice(start, start + 24));
  return m === null ? -1 : Number(m[1]);
}

/**
 * Runs of steps: a new run starts at a step labelled 0 or 1 once the current run has reached a step labelled 2 or
 * more (the numbering restarted; a run of `Step 1` labels never progressed, so it is one run). A run's leading `Step 0` is dropped as the initial state, unless the run is a
 * complete 0-based trace (exactly `depth` steps numbered 0 … depth − 1).
 */
function runsOf(text: string, stepStarts: readonly number[], indices: readonly number[], depth: number): number[][] {
  const runs: Array<Array<{ index: number; label: number }>> = [];
  let current: Array<{ index: number; label: number }> = [];
  let counted = false;
  for (const index of indices) {
    const label = labelAt(text, stepStarts[index]);
    if (label >= 0 && label <= 1 && counted) {
      runs.push(current);
      current = [];
      counted = false;
    }
    current.push({ index, label });
    if (label >= 2) counted = true;
  }
  if (current.length > 0) runs.push(current);
  return runs.map((run) => {
    const zeroBased = run.length === depth && run[0]?.label === 0 && run[run.length - 1]?.label === depth - 1;
    const kept = run[0]?.label === 0 && !zeroBased ? run.slice(1) : run;
    return kept.map((step) => step.index);
  });
}

/**
 * The indices of the steps that form the final answer's trace: the last run holding a whole trace (`depth`
 * steps) in the stretch that goes with the final block, else that stretch's last run.
 */
export function traceOfFinal(
  text: string,
  stepStarts: readonly number[],
  blocks: readonly AnswerBlock[],
  depth = 1,
): number[] {
  const stretch = stepsForFinal(stepStarts, blocks, depth);
  const runs = runsOf(text, stepStarts, stretch, Math.max(1, depth)).filter((run) => run.length > 0);
  if (runs.length === 0) return [];
  for (let r = runs.length - 1; r >= 0; r--) if (runs[r].length >= depth) return runs[r];
  return runs[runs.length - 1];
}
