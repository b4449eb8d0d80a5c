import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCeilingbench } from '../support/run-vitest.js';

const out = (name: string) => join(mkdtempSync(join(tmpdir(), `cb-${name}-`)), 'reports');

describe('ceilingbench run + compare (issue 12 acceptance)', () => {
  it('flags a D2 p_d regression from 0.95 to 0.90 and passes 0.95 against 0.95 on other seeds', () => {
    const runs = [
      ['base', 'sim:retention?p=0.95', '1'],
      ['worse', 'sim:retention?p=0.90', '2'],
      ['same', 'sim:retention?p=0.95', '3'],
    ].map(([name, subject, seed]) => {
      const dir = out(name);
      const run = runCeilingbench(['run', '--project', 'd2', '--subject', subject, '--seed', seed, '--out', dir]);
      expect(run.status, run.stderr + run.stdout).toBe(0);
      return join(dir, 'ceilingbench.json');
    });
    const regression = runCeilingbench(['compare', runs[0], runs[1]]);
    expect(regression.status, regression.stderr).toBe(1);
    expect(regression.stdout).toMatch(/d2 d2 p_d \(standard\): p_d fell by 0\.0\d+ \(95% CI of the change/);
    const same = runCeilingbench(['compare', runs[0], runs[2], '--json']);
    expect(same.status, same.stdout + same.stderr).toBe(0);
    expect(JSON.parse(same.stdout).regressions).toEqual([]);
  });

  it('saves a baseline and lists it in the history view', () => {
    const dir = out('baseline');
    const run = runCeilingbench(['run', '--project', 'd1', '--subject', 'oracle', '--trials', '2', '--out', dir]);
    expect(run.status, run.stderr).toBe(0);
    const baselines = mkdtempSync(join(tmpdir(), 'cb-baselines-'));
    const save = runCeilingbench([
      'baseline',
      'save',
      'oracle-1',
      '--from',
      join(dir, 'ceilingbench.json'),
      '--dir',
      baselines,
    ]);
    expect(save.status, save.stderr).toBe(0);
    const history = runCeilingbench(['baseline', 'history', '--dir', baselines]);
    expect(history.stdout).toMatch(/\| oracle-1 \| \d{4}-\d\d-\d\d \| 1\.000 \[1\.000, 1\.000\] \|/);
  });

  it('rejects a bad subject and an unknown project with exit 2 and the fix', () => {
    const subject = runCeilingbench(['run', '--subject', 'gpt4']);
    expect(subject.status).toBe(2);
    expect(subject.stderr).toMatch(/gpt4/);
    const project = runCeilingbench(['run', '--project', 'd9']);
    expect(project.status).toBe(2);
    expect(project.stderr).toMatch(
      /(No projects matched the filter "d9"|The filter matched no projects: d9)[\s\S]*ceilingbench\(\)/,
    );
  });

  it('rejects a malformed ceilingbench.config in a repository without a vitest config with exit 2, not 70', () => {
    const root = mkdtempSync(join(tmpdir(), 'cb-bad-config-'));
    writeFileSync(join(root, 'ceilingbench.config.mjs'), 'export default { trials: "many" };\n');
    const run = runCeilingbench(['run', '--root', root, '--project', 'd2']);
    expect(run.status, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/ceilingbench\.config\.mjs: trials: .*expected number/);
    expect(run.stderr).not.toMatch(/internal error/);
  });
});
