import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateCell } from '../../src/tasks/instances.js';
import { resolveTask } from '../../src/tasks/registry.js';
import type { FinishReason } from '../../src/tasks/task.js';
import { anatomy, isCounted, wrongAnswer } from '../support/answer-symmetry.js';

// Real-world output shapes of every family, written by us (fixtures/shapes/PROVENANCE.md), each graded with the
// canonical answer and with a wrong one of the same form: the outcome a careful reader gives, and never a trial
// that counts when right and is set aside when wrong (docs/outputs.md, "What counts").

interface ShapeCase {
  task: string;
  shape: string;
  template: string;
  finishReason: FinishReason;
  expect: { right: string; wrong: string };
  level?: number;
}

const fixture = JSON.parse(
  readFileSync(new URL('../../fixtures/shapes/written-by-us.json', import.meta.url), 'utf8'),
) as { shapes: ShapeCase[] };

/** The value of an answer line: after `2. ANSWER:` or `name =`, or the whole line. */
const answerValue = (answer: string): string => answer.replace(/^(?:\d+\.\s*)?ANSWER\s*:\s*|^[a-z_]+\s*=\s*/i, '');

const shifted = (base: number) => (text: string) =>
  text.replace(/[0-9]/g, (d) => String.fromCodePoint(base + Number(d)));
const pairs = (text: string) => text.replace(/^\[|\]$/g, '').split(/,\s*/);

const FILTERS: Record<string, (value: string) => string> = {
  fullwidth: (text) => text.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)),
  arabic: shifted(0x0660),
  devanagari: shifted(0x0966),
  bullets: (text) =>
    pairs(text)
      .map((p) => `- ${p}`)
      .join('\n'),
  numbered: (text) =>
    pairs(text)
      .map((p, i) => `${i + 1}. ${p}`)
      .join('\n'),
  dots: (text) =>
    pairs(text)
      .map((p) => `• ${p}`)
      .join('\n'),
  plainlist: (text) => (JSON.parse(text) as unknown[]).map((e) => JSON.stringify(e)).join('\n'),
  rows: (text) => (JSON.parse(text) as string[]).join('\n'),
  grouped: (text) => text.replace(/\B(?=(\d{3})+(?!\d))/g, ','),
  groupeddot: (text) => text.replace(/\B(?=(\d{3})+(?!\d))/g, '.'),
};

describe('output shapes written by us (fixtures/shapes): graded as a careful reader would', () => {
  it.each(fixture.shapes.map((c) => [`${c.task}: ${c.shape} @${c.finishReason}`, c] as const))('%s', (_title, c) => {
    const task = resolveTask(c.task);
    const [instance] = generateCell(task, c.level ?? task.levels.values[1] ?? task.levels.values[0], 1, {
      seedOffset: 5,
    });
    if (instance === undefined) throw new Error('no instance');
    const canonical = anatomy(task.canonicalResponse(instance));
    const wrong = wrongAnswer(task, instance, canonical);
    if (wrong === null) throw new Error(`${c.task}: no wrong answer of the canonical form`);
    const name = /^([a-z_]+)\s*=/i.exec(canonical.answer)?.[1] ?? '';
    const fill = (answer: string, other: string) =>
      c.template.replace(/\{(\w+)(?:\|(\w+))?\}/g, (_m, key: string, filter?: string) => {
        const values: Record<string, string> = {
          trace: canonical.trace,
          step1: String(instance.trace[0] ?? ''),
          answer: answerValue(answer),
          wrong: answerValue(other),
          name,
          pred: String(Number(answerValue(answer)) - 1),
        };
        const value = values[key];
        if (value === undefined) throw new Error(`unknown placeholder ${key}`);
        return filter === undefined ? value : (FILTERS[filter] ?? ((v) => v))(value);
      });
    const context = { finishReason: c.finishReason };
    const right = task.grade(instance, fill(canonical.answer, wrong), context);
    const bad = task.grade(instance, fill(wrong, canonical.answer), context);
    expect({ right: right.kind, wrong: bad.kind }, [...right.issues, '|', ...bad.issues].join(' · ')).toEqual(c.expect);
    expect(isCounted(right), 'counted or set aside, whatever the answer').toBe(isCounted(bad));
  });
});
