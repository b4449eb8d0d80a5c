import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AGENT_CONDITIONS,
  adjustAwayFromRoundNumber,
  agentInstance,
  agentLadder,
  agentPlugin,
  agentUserPrompt,
  buildAgentTask,
  buildCountLadder,
  markerSequence,
} from '../../src/tasks/scc-secondary/index.js';

interface Vectors {
  seed: number;
  ladders: { model: string; group: 'agent' | 'copy'; counts: number[] }[];
  tasks: {
    taskIndex: number;
    start: Record<string, number>;
    threshold: number;
    transactions: [string, string, number, boolean][];
    expected: unknown;
  }[];
}

const vectors: Vectors = JSON.parse(
  readFileSync(new URL('../../fixtures/scc-secondary/agent-vectors.json', import.meta.url), 'utf8'),
);
/** The released-ladder table of docs/spec/scc.md §11, as published. */
const sccMd = (
  JSON.parse(readFileSync(new URL('../../fixtures/scc-secondary/released-ladders.json', import.meta.url), 'utf8')) as {
    table: string;
  }
).table;

describe('agent-operation generator (scc.md §11, seed 17)', () => {
  it('the fixture ladders are the ones scc.md publishes', () => {
    for (const l of vectors.ladders) expect(sccMd).toContain(`| ${l.model} | ${l.group} | ${l.counts.join(' ')} |`);
  });

  it.each(vectors.ladders)('reproduces the released $group ladder of $model', ({ model, group, counts }) => {
    expect(agentLadder(vectors.seed, model, group)).toEqual(counts);
  });

  it.each(vectors.tasks)('reproduces agent task $taskIndex', (vector) => {
    const task = buildAgentTask(vectors.seed, vector.taskIndex);
    expect(task.startingBalances).toEqual(vector.start);
    expect(task.reviewThreshold).toBe(vector.threshold);
    expect(task.transactions.map((t) => [t.id, t.account, t.delta, t.flagged])).toEqual(vector.transactions);
    expect(task.expected).toEqual(vector.expected);
  });

  it('renders transactions as the authors do (signed deltas, yes/no flags)', () => {
    const task = buildAgentTask(17, 0);
    expect(task.prompt).toContain(
      '- T01-01: account=C, delta=-10, flagged=no\n- T01-02: account=A, delta=+45, flagged=no',
    );
    expect(task.prompt).toContain('abs(delta) >= 25.');
    expect(task.prompt.split('\n')[0]).toBe('Simulate a lightweight operations agent.');
  });

  it('every task obeys its own rules (property over task indices)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 500 }), fc.integer({ min: 0, max: 1000 }), (index, seed) => {
        const task = buildAgentTask(seed, index);
        const balances = { ...task.startingBalances };
        const review: string[] = [];
        for (const t of task.transactions) {
          expect(t.delta).not.toBe(0);
          expect(Math.abs(t.delta)).toBeLessThanOrEqual(45);
          balances[t.account] += t.delta;
          if (t.flagged || Math.abs(t.delta) >= task.reviewThreshold) review.push(t.id);
        }
        expect(task.expected.final_balances).toEqual(balances);
        expect(task.expected.review_ids).toEqual(review);
        expect(task.expected.net_total).toBe(balances.A + balances.B + balances.C);
        const negative = Object.values(balances).some((b) => b < 0);
        expect(task.expected.next_action).toBe(negative ? 'escalate' : review.length ? 'manual_review' : 'accept');
      }),
      { numRuns: 200 },
    );
  });

  it('ladders are strictly increasing, in range and off multiples of 50 (property over salts)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), fc.integer({ min: 0, max: 99 }), (salt, seed) => {
        const counts = buildCountLadder({ seed, salt, start: 50, stop: 1000, step: 50, jitter: 10 });
        for (const [i, c] of counts.entries()) {
          expect(c).toBeGreaterThanOrEqual(50);
          expect(c).toBeLessThanOrEqual(1000);
          expect(c % 50).not.toBe(0);
          if (i > 0) expect(c).toBeGreaterThan(counts[i - 1]);
        }
      }),
      { numRuns: 200 },
    );
    expect(adjustAwayFromRoundNumber(100, 50, 1000)).toBe(101);
    expect(adjustAwayFromRoundNumber(1000, 50, 1000)).toBe(999);
    expect(adjustAwayFromRoundNumber(40, 50, 1000)).toBe(51);
  });

  it('prompts carry the exact marker sequence and schema of each condition', () => {
    const task = buildAgentTask(17, 0);
    expect(agentUserPrompt('agent_baseline', task, 0)).toBe(task.prompt);
    const insert = agentUserPrompt('agent_count_insert', task, 5);
    expect(insert).toContain('\nMarker sequence:\na, a, a, a, a\n\nTask:\nSimulate a lightweight operations agent.');
    expect(insert).toContain('"next_action": <string>, "marker_count": <int>}');
    const copy = agentUserPrompt('copy_externalize', null, 3);
    expect(copy.endsWith('Marker sequence:\na, a, a')).toBe(true);
    expect(copy).toContain('"path": "scratch/marker_sequence.txt"');
    expect(markerSequence(0)).toBe('');
    expect(markerSequence(1)).toBe('a');
  });

  it('the oracle answer of every condition is strict JSON with the exact key order of the schema', () => {
    const task = buildAgentTask(17, 2);
    for (const condition of AGENT_CONDITIONS) {
      const instance = agentInstance(condition, task, 56, 17);
      const text = agentPlugin.canonicalResponse(instance);
      expect(agentPlugin.grade(instance, text).kind).toBe('exact');
      if (condition === 'copy_then_agent')
        expect(Object.keys(JSON.parse(text))).toEqual([
          'action',
          'path',
          'file_content',
          'marker_count',
          'final_balances',
          'review_ids',
          'net_total',
          'next_action',
        ]);
    }
  });
});
