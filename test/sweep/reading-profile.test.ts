import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCell } from '../../src/assays/sweep/run-cell.js';
import { loadConfig } from '../../src/config/index.js';
import { cellResultSchema } from '../../src/schema/cell.js';
import { createSubject } from '../../src/subjects/index.js';
import type { Subject, TrialRequest } from '../../src/subjects/subject.js';
import { resolveTask } from '../../src/tasks/registry.js';
import type { ReadingProfile } from '../../src/tasks/task.js';

// The reading profile a sweep grades with (issue 40): 'final', the symmetric rule, by default; 'authors' on
// request, for a reproduction. The cell records which one, so a report says it.

/** Every answer wrong, behind a preamble that pushes D1's TRACE keyword past its first 50 characters. */
async function preambleSubject(): Promise<Subject> {
  const oracle = await createSubject('oracle');
  return {
    identity: oracle.identity,
    answer: async (request: TrialRequest) => {
      const response = await oracle.answer(request);
      if (response.kind !== 'answer') return response;
      const text = response.text.replace(/ANSWER: .*$/, 'ANSWER: [[9, 8, 7], [6, 5, 4], [3, 2, 1]]');
      return { ...response, text: `Sure! Here is the careful, step-by-step solution to the task:\n${text}` };
    },
  };
}

async function cellWith(reading?: ReadingProfile) {
  const task = resolveTask('d1');
  return runCell({ project: 'd1', task, level: 5, trials: 4 }, await preambleSubject(), {
    concurrency: 2,
    maxMissingFraction: 1,
    ...(reading ? { reading } : {}),
  });
}

describe('the reading profile of a sweep', () => {
  it("defaults to 'final' (the wrong answers count) and records it; 'authors' sets them aside as Format", async () => {
    const final = await cellWith();
    expect(cellResultSchema.parse(final).reading).toBe('final');
    expect(final.outcomes).toMatchObject({ reasoning: 4, format: 0 });
    const authors = await cellWith('authors');
    expect(authors.reading).toBe('authors');
    expect(authors.outcomes).toMatchObject({ reasoning: 0, format: 4 });
  });

  it("the configuration's reading: 'final' by default, the file's, CEILINGBENCH_READING over it", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cb-reading-'));
    expect((await loadConfig({}, dir)).reading).toBe('final');
    writeFileSync(join(dir, 'ceilingbench.config.ts'), "export default { reading: 'authors' };\n");
    expect((await loadConfig({}, dir)).reading).toBe('authors');
    expect((await loadConfig({ CEILINGBENCH_READING: 'final' }, dir)).reading).toBe('final');
    await expect(loadConfig({ CEILINGBENCH_READING: 'paper' }, dir)).rejects.toThrow(/reading/);
  });
});
