import { describe, expect, it } from 'vitest';
import { maySelect } from '../../src/cli/selected-projects.js';

describe('maySelect: inline projects the --project filter leaves out are not started', () => {
  const named = (name: unknown) => ({ test: { name } });

  it('matches as Vitest does: exact names, * globs, case-insensitive, ! negation', () => {
    expect(maySelect(named('d2'), ['d1', 'd2'])).toBe(true);
    expect(maySelect(named('d2@p90'), ['d2', 'd2@*'])).toBe(true);
    expect(maySelect(named('D2'), ['d2'])).toBe(true);
    expect(maySelect(named('unit'), ['d1', 'd1@*', 'd2', 'd2@*'])).toBe(false);
    expect(maySelect(named('d20'), ['d2'])).toBe(false);
    expect(maySelect(named('puzzles'), ['!d2'])).toBe(true);
    expect(maySelect(named('d2'), ['!d2'])).toBe(false);
    expect(maySelect(named({ label: 'scc', color: 'red' }), ['scc'])).toBe(true);
    expect(maySelect(named({ label: 'scc', color: 'red' }), ['d1'])).toBe(false);
  });

  it('keeps what has no fixed name for Vitest to decide: paths, unnamed projects, browser instances', () => {
    expect(maySelect('packages/*', ['d1'])).toBe(true);
    expect(maySelect({ test: { include: ['x'] } }, ['d1'])).toBe(true);
    expect(maySelect({ extends: true }, ['d1'])).toBe(true);
    expect(maySelect({ test: { name: 'ui', browser: { instances: [] } } }, ['d1'])).toBe(true);
  });

  it('regular-expression characters in a name are literal', () => {
    expect(maySelect(named('d2@p=0.90'), ['d2@p=0.90'])).toBe(true);
    expect(maySelect(named('d2@p=0x90'), ['d2@p=0.90'])).toBe(false);
  });

  it('keeps a project of several subjects when a pattern names one of them (`d2@gpt-4o`, `*@gpt-4o`)', () => {
    const subjects = (name: string, labels: string[]) => ({
      test: { name, provide: { 'ceilingbench:subjects': labels.map((label) => ({ spec: label, label })) } },
    });
    expect(maySelect(subjects('d2', ['gpt-4o', 'oracle']), ['d2@oracle'])).toBe(true);
    expect(maySelect(subjects('d2', ['gpt-4o', 'oracle']), ['*@gpt-4o'])).toBe(true);
    expect(maySelect(subjects('d2', ['gpt-4o', 'oracle']), ['d3@oracle'])).toBe(false);
    expect(maySelect(subjects('d2', ['gpt-4o']), ['*@oracle'])).toBe(false);
    expect(maySelect(named('unit'), ['*@oracle'])).toBe(false);
  });
});
