import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PyRandom } from '../../../src/rng/index.js';
import { D1_SYSTEM_PROMPT } from '../../../src/tasks/ccb/d1/index.js';
import { D2_SYSTEM_PROMPT } from '../../../src/tasks/ccb/d2/index.js';
import { D3_SYSTEM_PROMPT } from '../../../src/tasks/ccb/d3/index.js';
import { CCB_VARIANTS, type CcbInstance } from '../../../src/tasks/ccb/index.js';
import { resolveTask } from '../../../src/tasks/registry.js';
import type { AnyTaskPlugin } from '../../../src/tasks/task.js';

// Erased plugin types, as the registry hands them out.
const d1Task: AnyTaskPlugin = resolveTask('d1');
const d2Task: AnyTaskPlugin = resolveTask('d2');
const d3Task: AnyTaskPlugin = resolveTask('d3');

/** The six verbatim prompt parts of the release (docs/spec/ccb.md Appendix A), in order: D1 OPERATIONS, D1 OUTPUT_FORMAT, D2 OPERATIONS, D2 OUTPUT_FORMAT, D3 RULES, D3 OUTPUT_FORMAT. */
const parts = JSON.parse(
  readFileSync(new URL('../../../fixtures/ccb/system-prompt-parts.json', import.meta.url), 'utf8'),
) as { blocks: { name: string; text: string }[] };
const blocks = parts.blocks.map((b) => b.text);

const gen = (task: AnyTaskPlugin, seed: number, depth: number, profile = 'official'): CcbInstance =>
  task.generate(new PyRandom(seed), depth, { seed, profile });

describe('Standard system prompts are the release text (ccb.md Appendix A)', () => {
  it('D1 = intro + OPERATIONS + example + OUTPUT_FORMAT', () => {
    expect(blocks).toHaveLength(6);
    expect(D1_SYSTEM_PROMPT).toBe(
      'You are a spatial reasoning engine. Track a 3x3 grid (Initial: cells numbered 1-9 reading top-left to bottom-right, i.e. [[1,2,3],[4,5,6],[7,8,9]]).\n\n' +
        `${blocks[0]}\n\n` +
        'SPATIAL LOGIC EXAMPLE:\nInitial Grid: [[1, 2, 3], [4, 5, 6], [7, 8, 9]]\nOperation: SHIFT_ROW_2_LEFT\nResult: [[1, 2, 3], [5, 6, 4], [7, 8, 9]]\n\n' +
        blocks[1],
    );
    expect(d1Task.render(gen(d1Task, 50000, 5)).system).toBe(D1_SYSTEM_PROMPT);
  });

  it('D2 = header + OPERATIONS + OUTPUT_FORMAT (with the en dash in 0–9)', () => {
    expect(D2_SYSTEM_PROMPT).toBe(
      `You are an abstract register-file engine tracking 7 variables.\n\n${blocks[2]}\n\n${blocks[3]}`,
    );
    expect(D2_SYSTEM_PROMPT).toContain('range 0–9');
    expect(d2Task.render(gen(d2Task, 50000, 5)).system).toBe(D2_SYSTEM_PROMPT);
  });

  it('D3 Standard, Verbose and C follow build_system_prompt', () => {
    const header = 'You are a relational logic engine tracking a social graph.\n\n';
    expect(D3_SYSTEM_PROMPT).toBe(`${header}${blocks[4]}\n\n${blocks[5]}`);
    const instance = gen(d3Task, 150000, 15);
    expect(d3Task.render(instance, 'standard').system).toBe(D3_SYSTEM_PROMPT);
    expect(d3Task.render(instance, 'verbose').system).toBe(
      `${header}${blocks[4]}\n\nCRITICAL ABLATION INSTRUCTION: After EVERY single event, you MUST explicitly write out the COMPLETE list of all currently known non-Neutral relationships before proceeding.\n\n${blocks[5]}`,
    );
    expect(
      d3Task
        .render(instance, 'C')
        .system.startsWith(
          `${header}${blocks[5]}\n\nInitial state: all 10 people (A-J) are Neutral to each other.\n\n${blocks[4]}\n\nEXPLICIT UPDATE RULE`,
        ),
    ).toBe(true);
  });

  it('D3 Variant B relabels people (not the F tag) in the rules, the format and the events', () => {
    const instance = gen(d3Task, 150000, 15);
    const { system, user } = d3Task.render(instance, 'B');
    expect(system).toContain('Person labels are opaque identifiers — no alphabetical ordering.');
    expect(system).toContain('PEOPLE: P01, P02, P03, P04, P05, P06, P07, P08, P09, P10');
    expect(system).toContain('[P01P02:F, P01P03:R, P02P03:R, P04P05:F]');
    expect(system).toContain("'P01P02:F' (Friends) or 'P01P02:R' (Rivals)");
    expect(system).toContain('FRIENDS (F)');
    expect(system).not.toContain('P06 of P06');
    expect(system).not.toMatch(/\bAB:F\b/);
    expect(user.split('\n')).toHaveLength(15);
    expect(user).toMatch(/^Step 1: P\d\d and P\d\d form an (ALLIANCE|RIVALRY)\.$/m);
  });
});

describe('user messages and variants', () => {
  it('official user message lists `Step i: <OP>` lines', () => {
    expect(d1Task.render(gen(d1Task, 50000, 5)).user).toBe(
      'Step 1: REVERSE_GRID\nStep 2: ROTATE_90_CW\nStep 3: SHIFT_ROW_2_LEFT\nStep 4: REVERSE_GRID\nStep 5: SHIFT_COL_1_UP',
    );
    expect(d3Task.render(gen(d3Task, 50000, 5)).user).toBe(
      [
        'Step 1: A and H form an ALLIANCE.',
        'Step 2: E and G form an RIVALRY.',
        'Step 3: D and G form an RIVALRY.',
        'Step 4: H and I form an ALLIANCE.',
        'Step 5: F and I form an RIVALRY.',
      ].join('\n'),
    );
  });

  it('every variant renders a distinct prompt and never changes the instance or its grading', () => {
    for (const task of [d1Task, d2Task, d3Task]) {
      for (const profile of ['official', 'paper']) {
        const instance = gen(task, 250003, 25, profile);
        const before = JSON.stringify(instance);
        const systems = CCB_VARIANTS.map((v) => task.render(instance, v).system);
        expect(new Set(systems).size, `${task.id} ${profile}`).toBe(CCB_VARIANTS.length);
        for (const v of CCB_VARIANTS) expect(task.render(instance, v).system.length).toBeGreaterThan(500);
        expect(JSON.stringify(instance)).toBe(before);
        expect(task.grade(instance, task.canonicalResponse(instance)).kind).toBe('correct');
      }
    }
  });

  it('paper profile prompts state the constraint; an unknown variant is an error naming the choices', () => {
    expect(d1Task.render(gen(d1Task, 50000, 5, 'paper')).system).toContain('GRID INTEGRITY');
    expect(d2Task.render(gen(d2Task, 50000, 5, 'paper')).system).toContain('ASSIGNMENT-UNIQUENESS');
    expect(() => d1Task.render(gen(d1Task, 50000, 5), 'D')).toThrow(/standard, verbose, A, B, C/);
  });

  it('D1 slot and mapping variants are derived from the operations themselves', () => {
    const system = d1Task.render(gen(d1Task, 50000, 5), 'B').system;
    expect(system).toContain('- ROTATE_90_CW: P01<-P07, P02<-P04, P03<-P01');
    const mapping = d1Task.render(gen(d1Task, 50000, 5), 'C').system;
    expect(mapping).toContain('- SWAP_CORNERS: (1,1)=old(3,3), (1,2)=old(1,2), (1,3)=old(3,1)');
  });

  it('output budgets follow the release (ccb.md §1)', () => {
    expect([5, 35, 40, 50].map((n) => d1Task.maxOutputTokens(n))).toEqual([4096, 4096, 6000, 6000]);
    expect([5, 35, 40, 50].map((n) => d2Task.maxOutputTokens(n))).toEqual([4096, 4096, 6000, 6000]);
    expect([5, 35, 40, 50].map((n) => d3Task.maxOutputTokens(n))).toEqual([12000, 12000, 20000, 20000]);
    expect(d1Task.levels).toEqual({ kind: 'depth', values: [5, 10, 15, 20, 25, 30, 35, 40, 45, 50] });
    expect(d3Task.profiles).toEqual(['official', 'paper']);
    expect(d2Task.family).toBe('ccb');
  });
});
