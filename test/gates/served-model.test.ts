import { describe, expect, it } from 'vitest';
import { projectGatesSchema } from '../../src/config/schema.js';
import { type GatedEntry, servedModelGates } from '../../src/gates/index.js';
import type { CellResult } from '../../src/schema/cell.js';
import { servedModelMatches } from '../../src/schema/provenance.js';

// The servedModel gate (issue 42 item 2): which served names each rule accepts, and when the gate says nothing.

describe('servedModelMatches', () => {
  it.each([
    ['exact', 'gpt-4o', 'gpt-4o', true],
    ['exact', 'gpt-4o', 'gpt-4o-2024-08-06', false],
    ['prefix', 'gpt-4o', 'gpt-4o-2024-08-06', true],
    ['prefix', 'gpt-4o', 'openai/gpt-4o-2024-08-06', true],
    ['prefix', 'openai/gpt-4o', 'gpt-4o-2024-08-06', true],
    ['prefix', 'gpt-4o', 'totally-different-model', false],
    ['prefix', 'gpt-4o', 'gpt-3.5-turbo', false],
    ['any', 'gpt-4o', 'totally-different-model', true],
  ] as const)('%s: requested %s, served %s → %s', (rule, requested, served, expected) => {
    expect(servedModelMatches(rule, requested, served)).toBe(expected);
  });
});

const cell = (served: Array<string | undefined>): CellResult =>
  ({
    kind: 'cell',
    project: 'd2',
    task: 'd2',
    trials: served.map((m) => ({ outcome: { kind: 'correct' }, ...(m ? { servedModel: m } : {}) })),
  }) as unknown as CellResult;

const entry = (served: Array<string | undefined>, model = 'gpt-x'): GatedEntry => ({
  project: 'd2',
  meta: {
    record: cell(served),
    gates: [],
    seed: 0,
    subject: { spec: `openai:${model}`, kind: 'openai', model, parameters: {} },
  },
});

describe('servedModelGates', () => {
  it('is part of the project gates schema, and nothing else', () => {
    expect(projectGatesSchema.safeParse({ servedModel: 'prefix' }).success).toBe(true);
    expect(projectGatesSchema.safeParse({ servedModel: 'loose' }).success).toBe(false);
  });

  it('fails on a trial served by another model, counting them', () => {
    const [g] = servedModelGates({ d2: { servedModel: 'exact' } }, [entry(['gpt-x', 'gpt-y', 'gpt-y'])]);
    expect(g).toMatchObject({ gate: 'servedModel', passed: false, estimate: 2, subject: 'openai:gpt-x' });
    expect(g.message).toContain('2 of 3 answered trial(s) served by gpt-y');
  });

  it("applies 'prefix' by default in a project with a hard gate only", () => {
    expect(servedModelGates({ d2: { minRetention: 0.5 } }, [entry(['gpt-x-2026'])])[0].passed).toBe(true);
    expect(servedModelGates({ d2: { minRetention: 0.5 } }, [entry(['other'])])[0].passed).toBe(false);
    expect(
      servedModelGates({ d2: { minRetention: { value: 0.5, mode: 'advisory', evidence: 'point' } } }, [
        entry(['other']),
      ]),
    ).toEqual([]);
    expect(servedModelGates({}, [entry(['other'])])).toEqual([]);
    expect(servedModelGates({ d2: { servedModel: 'any' } }, [entry(['other'])])).toEqual([]);
  });

  it('an explicit gate never passes when the provider named no served model; the default says nothing', () => {
    expect(servedModelGates({ d2: { servedModel: 'prefix' } }, [entry([undefined])])[0]).toMatchObject({
      passed: false,
      estimate: null,
    });
    expect(servedModelGates({ d2: { minRetention: 0.5 } }, [entry([undefined])])).toEqual([]);
  });
});
