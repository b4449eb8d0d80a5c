import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { responseChannels, withResponseChannels } from '../../src/tasks/final-answer.js';
import { generateCell } from '../../src/tasks/instances.js';
import { isSuccess } from '../../src/tasks/outcome.js';
import { REASONING_CHANNELS } from '../../src/tasks/reasoning-channels.js';
import { resolveTask } from '../../src/tasks/registry.js';
import { normalizeWhitespace, readResponse } from '../../src/tasks/response.js';

// The reasoning channels one by one (issue 27): what is answer, what is reasoning, and when there is no answer.

const read = (text: string) => {
  const { answer, reasoning, unclosed } = readResponse(text);
  return { answer, reasoning: reasoning.trim(), unclosed };
};

describe('readResponse: the delimiter table', () => {
  it('docs/outputs.md lists every delimiter of the table', () => {
    const docs = readFileSync(new URL('../../docs/outputs.md', import.meta.url), 'utf8');
    // a `|` inside a Markdown table cell is written `\|`
    const cell = (text: string) => text.replace(/\|/g, '\\|');
    for (const { name, open, close } of REASONING_CHANNELS) {
      expect(docs, name).toContain(`| ${name} | \`${cell(open)}…${cell(close)}\``);
    }
  });

  it.each(REASONING_CHANNELS.map((c) => [c.name, c] as const))(
    '%s: a block, a pre-filled one, an unclosed one',
    (_name, { open, close }) => {
      expect(read(`${open}draft ANSWER: 1${close}\nANSWER: 2`)).toEqual({
        answer: 'ANSWER: 2',
        reasoning: 'draft ANSWER: 1',
        unclosed: false,
      });
      expect(read(`draft ANSWER: 1\n${close}ANSWER: 2`).answer).toBe('ANSWER: 2');
      expect(read(`ANSWER: 2\n${open}wait, ANSWER: 1`)).toEqual({
        answer: '',
        reasoning: 'wait, ANSWER: 1',
        unclosed: true,
      });
    },
  );

  it('another delimiter inside a block is part of its reasoning; tags are matched in any case', () => {
    expect(read('<think>[THINK] x</think>\nANSWER: 3').answer).toBe('ANSWER: 3');
    expect(read('[think]x[/Think]ANSWER: 3').answer).toBe('ANSWER: 3');
    expect(read('<Seed:Think >x</seed:think >ANSWER: 3').answer).toBe('ANSWER: 3');
  });
});

describe('readResponse: gpt-oss Harmony', () => {
  const analysis = '<|channel|>analysis<|message|>We need ANSWER: 9<|end|>';
  const final = (text: string) => `<|start|>assistant<|channel|>final<|message|>${text}`;

  it('the final channel is the answer; analysis and commentary are reasoning', () => {
    expect(read(`<|start|>assistant${analysis}${final('ANSWER: 6<|return|>')}`)).toEqual({
      answer: 'ANSWER: 6',
      reasoning: 'We need ANSWER: 9',
      unclosed: false,
    });
    const commentary =
      '<|start|>assistant<|channel|>commentary to=functions.x <|constrain|>json<|message|>{"a":1}<|call|>';
    expect(read(`${analysis}${commentary}${final('ANSWER: 6')}`).answer).toBe('ANSWER: 6');
    // the template pre-filled the analysis header: the content starts inside it
    expect(read(`We need ANSWER: 9<|end|>${final('ANSWER: 6')}`).answer).toBe('ANSWER: 6');
  });

  it('no final channel, an empty one, or reasoning the output ended in after it: no answer', () => {
    expect(read(analysis)).toMatchObject({ answer: '', unclosed: true });
    expect(read('<|channel|>analysis<|message|>We need ANSWER: 9')).toMatchObject({ answer: '', unclosed: true });
    expect(read(`${analysis}${final('<|return|>')}`)).toMatchObject({ answer: '', unclosed: false });
    expect(
      read(`${analysis}${final('ANSWER: 6<|end|>')}<|start|>assistant<|channel|>analysis<|message|>Wait`),
    ).toMatchObject({
      answer: '',
      unclosed: true,
    });
    expect(read(`${analysis}${final('ANSWER: 6<|end|>')}<|start|>assistant<|chan`).answer).toBe('ANSWER: 6');
  });

  it('the stripped form: only `analysis` glued to its first word, at the start', () => {
    expect(read('analysisWe need ANSWER: 9assistantfinalANSWER: 8')).toEqual({
      answer: 'ANSWER: 8',
      reasoning: 'We need ANSWER: 9',
      unclosed: false,
    });
    expect(read('\ufeff analysis1. compute ANSWER: 9')).toMatchObject({ answer: '', unclosed: true });
    // zero-width characters and line ends before it, or inside the word, hide nothing
    expect(read('\u200b\n\u2060 an\u200dalysisWe need ANSWER: 9assistantfinalANSWER: 8').answer).toBe('ANSWER: 8');
    expect(read('\u200b.analysisWe need ANSWER: 9assistantfinalANSWER: 8').unclosed).toBe(false);
    expect(read('analysisWe needassistantfinalANSWER: 8assistantanalysisWait, step 2')).toMatchObject({
      answer: '',
      unclosed: true,
    });
    for (const ordinary of ['analysis of the grid: ANSWER: 10', 'analysis:\nANSWER: 10', 'Analysis ANSWER: 10']) {
      expect(read(ordinary)).toEqual({ answer: ordinary, reasoning: '', unclosed: false });
    }
    expect(read('My analysisWe… assistantfinal ANSWER: 10').answer).toBe('My analysisWe… assistantfinal ANSWER: 10');
  });
});

describe('zero-width characters and user delimiters', () => {
  it('zero-width spaces, joiners, the word joiner and BOMs are removed from the answer', () => {
    expect(normalizeWhitespace('\ufeffANSWER: [[1,\u200b2],\u2060[3,\u200c4\u200d]]')).toBe('ANSWER: [[1,2],[3,4]]');
  });

  it('a user delimiter is read only where it is given', () => {
    const text = 'ANSWER: 1\n<scratchpad>ANSWER: 2</scratchpad>';
    const scratch = [{ open: '<scratchpad>', close: '</scratchpad>' }];
    expect(readResponse(text).answer).toBe('ANSWER: 1\n<scratchpad>ANSWER: 2</scratchpad>');
    expect(readResponse(text, null, scratch).answer).toBe('ANSWER: 1');
    // a user delimiter holding regex syntax is literal text
    expect(readResponse('x.*y?ANSWER: 2[[/x]]ANSWER: 1', null, [{ open: 'x.*y?', close: '[[/x]]' }]).answer).toBe(
      'ANSWER: 1',
    );
  });

  it('a plugin wrapped with the user’s delimiters grades and records with them; wrapping again adds', () => {
    const d1 = resolveTask('d1');
    const scratch = withResponseChannels(d1, [{ open: '<scratchpad>', close: '</scratchpad>' }]);
    const both = withResponseChannels(scratch, [{ open: '{{plan}}', close: '{{/plan}}' }]);
    expect(withResponseChannels(scratch)).toBe(scratch);
    const text = '{{plan}}x{{/plan}}<scratchpad>y</scratchpad>garbage';
    expect(responseChannels(both, text).answer).toBe('garbage');
    expect(responseChannels(scratch, text).answer).toBe('{{plan}}x{{/plan}}\ngarbage');
    expect(responseChannels(d1, text).answer).toBe(text);
    const [instance] = generateCell(d1, 5, 1);
    const right = d1.canonicalResponse(instance);
    const behind = `${right}\n<scratchpad>\n2. ANSWER: [[0, 0, 0], [0, 0, 0], [0, 0, 0]]\n</scratchpad>`;
    expect(isSuccess(scratch.grade(instance, behind))).toBe(true);
    expect(isSuccess(d1.grade(instance, behind))).toBe(false);
    expect(
      isSuccess(
        d1.grade(instance, behind, { reasoningDelimiters: [{ open: '<scratchpad>', close: '</scratchpad>' }] }),
      ),
    ).toBe(true);
  });
});
