import { describe, expect, it } from 'vitest';
import { buildReport, renderMarkdown, type TestEntry } from '../../reporters/projections/index.js';
import { fitRetentionSweep } from '../../src/assays/sweep/fit-retention.js';
import { summarizeCell } from '../../src/assays/sweep/summarize-cell.js';
import { PyRandom } from '../../src/rng/index.js';
import { reportSchema } from '../../src/schema/report.js';
import type { TrialRecord } from '../../src/schema/trial.js';
import { resolveTask } from '../../src/tasks/registry.js';

// Beside p_d, the report says what the trials set aside as missing data (Format, Truncation) answered, so a
// user sees when missing data is not missing at random (issue 16, part 5).

const task = resolveTask('d1');

function cellOf(level: number, responses: Array<{ text: string; finishReason?: 'stop' | 'length' }>) {
  const trials: TrialRecord[] = responses.map(({ text, finishReason = 'stop' }, i) => {
    const instance = task.generate(new PyRandom(100 + i), level, { seed: 100 + i });
    const answer = instance.answer;
    const filled = text
      .replaceAll('{trace}', instance.trace.map((s: string, k: number) => `"Step ${k + 1}: ${s}"`).join(', '))
      .replaceAll('{answer}', answer);
    return {
      task: 'd1',
      level,
      seed: 100 + i,
      trialIndex: 0,
      profile: 'official',
      variant: 'standard',
      // the authors' precedence, where a wrong answer behind a format issue is set aside (under the default
      // symmetric rule it is counted, and the set-aside trials hold no readable final answer)
      outcome: task.grade(instance, filled, { finishReason, reading: 'authors' }),
      finishReason,
      usage: null,
      latencyMs: 0,
      cacheHit: false,
      attempts: 1,
    };
  });
  const id = {
    project: 'd1',
    task,
    level,
    profile: 'official',
    variant: 'standard',
    seedOffset: 0,
    maxMissingFraction: 1,
  };
  return summarizeCell(id, trials);
}

const WRONG = '[[9, 9, 9], [9, 9, 9], [9, 9, 9]]';
const responses = [
  { text: '1. TRACE: [{trace}]\n2. ANSWER: {answer}' }, // correct
  { text: `Some preamble that pushes the keyword far away. 1. TRACE: [{trace}]\n2. ANSWER: ${WRONG}` }, // format, read, wrong
  { text: 'I could not finish this one.' }, // format, unread
  { text: '1. TRACE: [{trace}]\n2. ANSWER: [[1, 2', finishReason: 'length' as const }, // truncation, unread
  { text: 'TRACE: Step 1:\n[[1, 2, 3],\n[4, 5, 6],\n[7, 8, 9]]\nANSWER: {answer}' }, // correct, trace unreadable
];

describe('Format/Truncation trials by their final answer', () => {
  it('the fit counts them by what their final answer says; the report prints it beside p_d', () => {
    const fit = fitRetentionSweep([cellOf(5, responses)], { project: 'd1', missing: 'paper', seed: 1 });
    expect(fit.setAside).toEqual({
      format: 2,
      truncation: 1,
      finalAnswerCorrect: 0,
      finalAnswerWrong: 1,
      finalAnswerUnread: 2,
      traceUnreadable: 1,
    });
    const entries: TestEntry[] = [
      {
        project: 'd1',
        name: 'd1 > d1 · fit',
        file: 'specs/d1.spec.ts',
        state: 'passed',
        errors: [],
        durationMs: 1,
        meta: { record: fit, gates: [], subject: { spec: 'sim', kind: 'sim', parameters: {} }, seed: 1 },
      },
    ];
    const report = buildReport(entries, {
      version: '0.1.0',
      gitSha: 'abc',
      startedAt: '2026-01-01T00:00:00.000Z',
      finishedAt: '2026-01-01T00:00:01.000Z',
      durationMs: 1000,
    });
    expect(reportSchema.parse(report).fits[0]).toMatchObject({ setAside: fit.setAside });
    expect(renderMarkdown(report)).toContain(
      'd1 standard: 2 Format and 1 Truncation trials; final answer readable in 1 (0 correct, 1 wrong), unreadable in 2; 1 correct trials had an unreadable trace (no k*, no TFBC).',
    );
  });

  it('cells without trial records give no summary (nothing is guessed)', () => {
    const cell = { ...cellOf(5, responses), trials: [] };
    expect(fitRetentionSweep([cell], { project: 'd1', missing: 'paper', seed: 1 })).not.toHaveProperty('setAside');
  });
});
