import { markerSequence } from '../common.js';
import type { DualData } from './instance.js';

/** The dual-task user prompts, verbatim templates of `run_count_scatter_controls.py` (docs/spec/scc.md §12). */
export function dualUserPrompt(data: DualData): string {
  const primary = markerSequence(data.count);
  switch (data.condition) {
    case 'plain_count':
      return (
        'Count the marker sequence. Return JSON with exactly this schema: {"count": <number of a markers>}.\n\n' +
        `Marker sequence:\n${primary}`
      );
    case 'real_task:d2':
    case 'real_task:sat': {
      if (!data.item) throw new Error(`${data.condition} needs its secondary item`);
      return (
        'You must answer the task and count the marker sequence. Return JSON with exactly this schema: ' +
        '{"task_answer": <answer to Task>, "count": <number of a markers>}.\n\n' +
        `Task:\n${data.item.prompt}\n\nMarker sequence:\n${primary}`
      );
    }
    case 'irrelevant_code': {
      if (!data.control?.code) throw new Error('irrelevant_code needs its generated code');
      return (
        'Count only the a markers in the marker sequence. Ignore the unrelated code. Return JSON with exactly this ' +
        'schema: {"count": <number of a markers>}.\n\n' +
        `Primary marker sequence:\n${primary}\n\n` +
        `Unrelated code matched to the sampled benchmark question length:\n${data.control.code}`
      );
    }
    case 'dual_counting': {
      const b = data.control?.secondaryCount;
      if (b === null || b === undefined) throw new Error('dual_counting needs its secondary count');
      return (
        'Count both marker sequences exactly. Return JSON with exactly this schema: ' +
        '{"count": <number of a markers>, "secondary_count": <number of b markers>}.\n\n' +
        `Primary marker sequence:\n${primary}\n\n` +
        `Secondary marker sequence matched to the sampled benchmark question length:\n${markerSequence(b, 'b')}`
      );
    }
  }
}
