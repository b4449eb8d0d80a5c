import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { subjectLabel, subjectLabels } from '../../src/subjects/label.js';

/** Vitest's project filter: `*` is the wildcard, everything else literal, case-insensitive (vitest 4). */
const projectGlob = (pattern: string): RegExp =>
  new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
    'i',
  );

const specArb = fc.oneof(
  fc.constant('oracle'),
  fc.string({ minLength: 1, maxLength: 24 }).map((model) => `openai:${model}`),
  fc
    .tuple(fc.constantFrom('retention', 'counting', 'default'), fc.double({ min: 0, max: 1, noNaN: true }), fc.nat(99))
    .map(([profile, p, seed]) => `sim:${profile}?p=${p}&seed=${seed}`),
  fc
    .tuple(fc.string({ maxLength: 16 }), fc.option(fc.string({ minLength: 1, maxLength: 8 })))
    .map(([path, model]) => `replay:${path || 'x'}${model === null ? '' : `#${model}`}`),
  fc.string({ minLength: 1, maxLength: 30 }),
);

describe('subjectLabel', () => {
  it('names the documented examples', () => {
    expect(subjectLabel('openai:gpt-4o-mini')).toBe('gpt-4o-mini');
    expect(subjectLabel('sim:retention?p=0.95')).toBe('sim-retention-p0.95');
    expect(subjectLabel('sim:retention?p=0.9&seed=7')).toBe('sim-retention-p0.9-seed7');
    expect(subjectLabel('openai:meta-llama/Llama-3-8B')).toBe('meta-llama-llama-3-8b');
    expect(subjectLabel('oracle')).toBe('oracle');
    expect(subjectLabel('replay:logs/gpt4.jsonl#gpt-4')).toBe('replay-gpt4-gpt-4');
    expect(subjectLabel('openai:***')).toBe('subject');
    expect(subjectLabel('module:./subjects/agent.ts')).toBe('agent');
    expect(subjectLabel('module:./subjects.ts#router')).toBe('subjects-router');
    expect(subjectLabel('function:Support-Agent')).toBe('support-agent');
  });

  it('is file-name and glob safe: lower-case [a-z0-9._-], no @, no leading ! or -, never empty', () => {
    fc.assert(
      fc.property(specArb, (spec) => {
        const label = subjectLabel(spec);
        expect(label).toMatch(/^[a-z0-9_]([a-z0-9._-]*[a-z0-9_])?$/);
        // `d2@<label>` is matched by its own name as a --project pattern, and by `d2@*`, and by no other project
        expect(projectGlob(`d2@${label}`).test(`d2@${label}`)).toBe(true);
        expect(projectGlob('d2@*').test(`d2@${label}`)).toBe(true);
        expect(projectGlob('d2@*').test(`d1@${label}`)).toBe(false);
        expect(subjectLabel(spec)).toBe(label);
      }),
    );
  });
});

describe('subjectLabels', () => {
  it('is unique within a run, even case-insensitively, and does not depend on the order of the list', () => {
    fc.assert(
      fc.property(fc.uniqueArray(specArb, { minLength: 1, maxLength: 8, selector: (s) => s.trim() }), (specs) => {
        const labels = subjectLabels(specs);
        expect(new Set(labels.map((l) => l.toLowerCase())).size).toBe(specs.length);
        for (const label of labels) expect(label).toMatch(/^[a-z0-9._-]+$/);
        const reversed = subjectLabels([...specs].reverse()).reverse();
        expect(reversed).toEqual(labels);
      }),
    );
  });

  it('keeps a label that clashes with none, and suffixes a fingerprint of the spec to labels that clash', () => {
    const labels = subjectLabels(['openai:a/b', 'openai:a-b', 'sim:retention?p=0.9']);
    expect(labels[2]).toBe('sim-retention-p0.9');
    expect(labels[0]).toMatch(/^a-b-[0-9a-f]{8}$/);
    expect(labels[1]).toMatch(/^a-b-[0-9a-f]{8}$/);
    expect(labels[0]).not.toBe(labels[1]);
    // the same spec gets the same fingerprint in any run where it clashes
    expect(subjectLabels(['openai:A-B', 'openai:a/b'])[1]).toBe(labels[0]);
    expect(() => subjectLabels(['oracle', 'oracle'])).toThrow(/listed twice/);
  });
});
