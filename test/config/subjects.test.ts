import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { subjectEnv } from '../../src/cli/run-flags.js';
import { ConfigError, loadConfig } from '../../src/config/index.js';
import { loadSubjects, parseSubjectList } from '../../src/config/load.js';
import { resolveRunConfig } from '../../src/config/resolve.js';

const dirWith = (config?: string): string => {
  const dir = mkdtempSync(join(tmpdir(), 'cb-subjects-'));
  if (config !== undefined) writeFileSync(join(dir, 'ceilingbench.config.ts'), config);
  return dir;
};

describe('several subjects: configuration', () => {
  it('one subject is a list of one, with `subject` as before', async () => {
    expect(await loadConfig({}, dirWith())).toMatchObject({ subject: 'sim:default', subjects: ['sim:default'] });
    const single = await loadConfig({}, dirWith("export default { subject: 'oracle' };\n"));
    expect(single).toMatchObject({ subject: 'oracle', subjects: ['oracle'] });
    const run = await resolveRunConfig({ root: dirWith(), env: { CEILINGBENCH_SUBJECT: 'sim:retention?p=0.9' } });
    expect(run.subjects).toEqual(['sim:retention?p=0.9']);
  });

  it("reads the file's `subjects` in order; `subject` is the first", async () => {
    const dir = dirWith("export default { subjects: ['sim:retention?p=0.9', 'oracle'] };\n");
    const config = await loadConfig({}, dir);
    expect(config.subjects).toEqual(['sim:retention?p=0.9', 'oracle']);
    expect(config.subject).toBe('sim:retention?p=0.9');
    expect(await loadSubjects({}, dir)).toEqual(config.subjects);
  });

  it('refuses `subject` and `subjects` together, an empty list, and a subject listed twice', async () => {
    const both = dirWith("export default { subject: 'oracle', subjects: ['sim:default'] };\n");
    const error = await loadConfig({}, both).catch((e) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toMatch(/both 'subject' and 'subjects' are set/);
    await expect(loadConfig({}, dirWith('export default { subjects: [] };\n'))).rejects.toThrow(/subjects/);
    await expect(loadConfig({}, dirWith("export default { subjects: ['oracle', 'oracle'] };\n"))).rejects.toThrow(
      /'oracle' is listed twice/,
    );
    await expect(loadConfig({ CEILINGBENCH_SUBJECTS: 'oracle, oracle' }, dirWith())).rejects.toThrow(/listed twice/);
  });

  it('CEILINGBENCH_SUBJECTS: a comma list, or a JSON array for a spec with a comma; it wins over the file', async () => {
    const dir = dirWith("export default { subjects: ['oracle', 'sim:default'] };\n");
    const env = { CEILINGBENCH_SUBJECTS: ' sim:retention?p=0.95 ,sim:retention?p=0.9&seed=3' };
    expect((await loadConfig(env, dir)).subjects).toEqual(['sim:retention?p=0.95', 'sim:retention?p=0.9&seed=3']);
    expect((await loadConfig({ CEILINGBENCH_SUBJECT: 'oracle' }, dir)).subjects).toEqual(['oracle']);
    expect(parseSubjectList('["replay:a,b.jsonl","oracle"]')).toEqual(['replay:a,b.jsonl', 'oracle']);
    expect(parseSubjectList('  ')).toBeUndefined();
    expect(() => parseSubjectList('oracle,,sim:default')).toThrow(/empty entry/);
    expect(() => parseSubjectList('[1, 2]')).toThrow(/array of subject strings/);
    expect(() => parseSubjectList('[oracle')).toThrow(/not a valid JSON array/);
    await expect(
      loadConfig({ CEILINGBENCH_SUBJECT: 'oracle', CEILINGBENCH_SUBJECTS: 'sim:default,oracle' }, dir),
    ).rejects.toThrow(/both set/);
    // the environment decides alone: the file is not read for the subjects
    expect(await loadSubjects(env, dirWith('export default { subjects: 3 };\n'))).toHaveLength(2);
  });

  it('`run --subject`, once or repeated, becomes the environment the configuration reads', async () => {
    expect(subjectEnv(undefined)).toEqual({});
    expect(subjectEnv('oracle')).toEqual({ CEILINGBENCH_SUBJECT: 'oracle', CEILINGBENCH_SUBJECTS: '' });
    const several = subjectEnv(['sim:retention?p=0.9', 'replay:a,b.jsonl']);
    expect(several.CEILINGBENCH_SUBJECT).toBe('');
    expect((await loadConfig(several, dirWith())).subjects).toEqual(['sim:retention?p=0.9', 'replay:a,b.jsonl']);
    expect(() => subjectEnv(['oracle', ' '])).toThrow(/empty subject/);
  });
});
