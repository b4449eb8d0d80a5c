import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { selectedSubjects } from '../../src/vitest/subject-filter.js';

const LABELS = ['gpt-4o', 'gpt-4o-mini', 'oracle'];

describe('selectedSubjects: the --project patterns select the subjects of a project that runs several', () => {
  it('runs every subject without patterns, or when the project is named without an @', () => {
    expect(selectedSubjects('d2', LABELS, [])).toEqual(LABELS);
    expect(selectedSubjects('d2', LABELS, ['d2'])).toEqual(LABELS);
    expect(selectedSubjects('d2', LABELS, ['d*'])).toEqual(LABELS);
    expect(selectedSubjects('d2', LABELS, ['d2', 'd2@*'])).toEqual(LABELS);
  });

  it('narrows to the subjects whose <project>@<label> an @ pattern matches', () => {
    expect(selectedSubjects('d2', LABELS, ['d2@gpt-4o'])).toEqual(['gpt-4o']);
    expect(selectedSubjects('d2', LABELS, ['d2@gpt-*'])).toEqual(['gpt-4o', 'gpt-4o-mini']);
    expect(selectedSubjects('d2', LABELS, ['*@oracle'])).toEqual(['oracle']);
    expect(selectedSubjects('d2', LABELS, ['D2@ORACLE'])).toEqual(['oracle']);
    expect(selectedSubjects('d2', LABELS, ['!d2@oracle'])).toEqual(['gpt-4o', 'gpt-4o-mini']);
    // Vitest needs `d2` to keep the project; the @ pattern still narrows it
    expect(selectedSubjects('d2', LABELS, ['d2', 'd2@oracle'])).toEqual(['oracle']);
  });

  it("a pattern for another project's subjects leaves a project named on its own whole", () => {
    expect(selectedSubjects('d2', LABELS, ['d2', 'd3@oracle'])).toEqual(LABELS);
    expect(selectedSubjects('d3', LABELS, ['d2', 'd3@oracle'])).toEqual(['oracle']);
  });

  it('selects nothing when no pattern names the project or one of its subjects', () => {
    expect(selectedSubjects('d2', LABELS, ['d3'])).toEqual([]);
    expect(selectedSubjects('d2', LABELS, ['d2@nobody'])).toEqual([]);
    expect(selectedSubjects('d2', LABELS, ['*@nobody'])).toEqual([]);
  });

  it('selects a subset of the labels, in their order', () => {
    const label = fc.stringMatching(/^[a-z0-9._-]{1,8}$/);
    fc.assert(
      fc.property(
        fc.uniqueArray(label, { minLength: 1, maxLength: 6 }),
        fc.array(label, { maxLength: 3 }),
        (labels, picks) => {
          const selected = selectedSubjects(
            'd2',
            labels,
            picks.map((p) => `d2@${p}`),
          );
          expect(selected).toEqual(labels.filter((l) => selected.includes(l)));
          if (picks.length > 0) for (const l of selected) expect(picks).toContain(l);
        },
      ),
    );
  });
});
