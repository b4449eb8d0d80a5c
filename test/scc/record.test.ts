import { describe, expect, it } from 'vitest';
import { sccRecordOf } from '../../src/assays/scc/record.js';
import { runSccAssay } from '../../src/assays/scc/run.js';
import { sccRecordSchema } from '../../src/schema/report.js';
import { createSubject } from '../../src/subjects/index.js';

describe("an SCC ladder's report record", () => {
  it('names the task its ladder ran: a nested ladder says nested, a counting ladder count', async () => {
    const subject = await createSubject('sim:counting?cc=64');
    const nested = sccRecordSchema.parse(sccRecordOf(await runSccAssay(subject, { seed: 7, task: 'nested' })));
    expect(nested).toMatchObject({ kind: 'scc', task: 'nested', project: 'scc' });
    expect(nested.result).toMatchObject({ task: 'nested' });
    const counting = sccRecordSchema.parse(sccRecordOf(await runSccAssay(subject, { seed: 7 })));
    expect(counting).toMatchObject({ kind: 'scc', task: 'count', project: 'scc' });
  });

  it('a task that declares no ladder is refused before any request', async () => {
    const subject = await createSubject('sim:default');
    await expect(runSccAssay(subject, { seed: 7, task: 'd2' })).rejects.toThrow(/declares no ladder/);
    await expect(runSccAssay(subject, { seed: 7, motif: 'no-such-motif' })).rejects.toThrow(/unknown variant/);
  });
});
