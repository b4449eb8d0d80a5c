import type { Report } from '../../../src/schema/report.js';

/** The column label of a run: its model (or spec) when one subject answered, else an honest "mixed". */
export function subjectLabel(subjects: Report['subjects']): string {
  if (subjects.length === 0) return 'unknown subject';
  if (subjects.length > 1) return `${subjects.length} subjects (mixed)`;
  const subject = subjects[0];
  return subject.model ?? subject.spec;
}
