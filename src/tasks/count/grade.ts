import type { Finality } from '../finality.js';
import type { CountOutcome } from '../outcome.js';
import type { GradeContext } from '../task.js';
import { auditResponse } from './audit.js';
import { countFinality } from './final-answer.js';
import { parseGroupedCount, parseLastInteger, scoreCount } from './parse.js';
import type { Motif } from './stimulus.js';

const FINAL: Finality = { kind: 'final' };

/** Grades a counting response: exact | inexact | unparsed, with the relative error and the audit category. */
export function gradeCount(expected: number, text: string, context: GradeContext = {}, motif?: Motif): CountOutcome {
  const format = auditResponse(text, { finishReason: context.finishReason, motif });
  const base = { family: 'count' as const, expected, format, kStar: -1, tfbc: false };
  // The last integer counts only when nothing after it could have changed it (src/tasks/finality.ts); a
  // reproduction of the authors' scores reads it as their parser did.
  const finality = context.reading === 'authors' ? FINAL : countFinality(text, context.finishReason);
  if (finality.kind !== 'final') {
    return { ...base, kind: 'unparsed', parsed: null, relativeError: null, issues: [finality.issue] };
  }
  // 'final' reads a count written with thousands separators whole (`16,384`); the authors' parser, its last group
  const grouped = context.reading === 'authors' ? null : parseGroupedCount(text);
  const score = scoreCount(grouped ?? parseLastInteger(text), expected);
  switch (score.kind) {
    case 'unparsed':
      return { ...base, kind: 'unparsed', parsed: null, relativeError: null, issues: ['no integer in the response'] };
    case 'overflow':
      return {
        ...base,
        kind: 'unparsed',
        parsed: null,
        relativeError: null,
        issues: [
          `parsed value ${score.parsed.toString().slice(0, 40)}… overflows the squared error (authors: error trial)`,
        ],
      };
    case 'scored':
      return {
        ...base,
        kind: score.exact ? 'exact' : 'inexact',
        parsed: score.parsed,
        relativeError: score.relativeError,
        issues: score.exact ? [] : [`counted ${score.parsed}, expected ${expected}`],
      };
  }
}
