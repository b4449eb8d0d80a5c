import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runSccAssay } from '../../src/assays/scc/run.js';
import { sccResultSchema } from '../../src/assays/scc/schema.js';
import type { Subject, TrialRequest, TrialResponse } from '../../src/subjects/subject.js';

const ladderCases = JSON.parse(readFileSync(new URL('../../fixtures/scc/ladder_cases.json', import.meta.url), 'utf8'));

type Answer = (request: TrialRequest) => { text: string; finishReason: 'stop' | 'length' } | 'error';

function subject(answer: Answer, log: TrialRequest[] = []): Subject {
  return {
    identity: { spec: 'test', kind: 'sim', parameters: {} },
    async answer(request): Promise<TrialResponse> {
      log.push(request);
      const a = answer(request);
      if (a === 'error') return { kind: 'error', error: 'ServerError: 503 UNAVAILABLE', latencyMs: 0, attempts: 1 };
      return { kind: 'answer', ...a, usage: null, latencyMs: 0, cacheHit: false, attempts: 1 };
    },
  };
}
const exact: Answer = (r) => ({ text: String(r.instance.answer), finishReason: 'stop' });

describe('runSccAssay', () => {
  it('returns the authors’ skipped record when the preflight yields no integer', async () => {
    const result = await runSccAssay(
      subject(() => ({ text: 'I cannot count', finishReason: 'stop' })),
      { seed: 7, preflight: 'first' },
    );
    const expected = ladderCases.preflight_skip_record.record;
    expect(sccResultSchema.parse(result)).toMatchObject({
      skipped: true,
      skipReason: expected.skip_reason,
      cc: expected.cc,
      ccLower: expected.cc_lower_bound,
      ccUpper: expected.cc_upper_bound,
      errorBar: expected.cc_error_bar,
      calls: expected.trial_count,
      tiers: [],
    });
  });

  it('by default asks the preflight only after the first tier failed, and writes the same skipped record', async () => {
    const requests: TrialRequest[] = [];
    const result = await runSccAssay(
      subject(() => ({ text: 'I cannot count', finishReason: 'stop' }), requests),
      { seed: 7, concurrency: 1 },
    );
    const expected = ladderCases.preflight_skip_record.record;
    expect(sccResultSchema.parse(result)).toMatchObject({
      preflightPolicy: 'if-first-tier-fails',
      skipped: true,
      skipReason: expected.skip_reason,
      cc: expected.cc,
      ccLower: expected.cc_lower_bound,
      ccUpper: expected.cc_upper_bound,
      bounded: false,
      errorBar: expected.cc_error_bar,
      // one unparsed answer settles tier 32, then the preflight
      calls: 2,
    });
    expect(result.tiers.map((t) => [t.center, t.passed, t.issued])).toEqual([[32, false, 1]]);
    expect(requests.map((r) => r.instance.level)).toEqual([32, 8]);
    // the largest of tier 32's targets went first
    expect(requests[0].instance.answer).toBe(Math.max(...result.tiers[0].targets));
  });

  it('by default skips the preflight when the first tier passes: same ladder, one call fewer', async () => {
    const requests: TrialRequest[] = [];
    const ours = await runSccAssay(subject(exact, requests), { seed: 7, maxLength: 300 });
    const authors = await runSccAssay(subject(exact), { seed: 7, maxLength: 300, exactPeerCalls: true });
    expect(ours.preflight).toBeUndefined();
    expect('preflight' in ours).toBe(false);
    expect(authors).toMatchObject({ preflightPolicy: 'first', launchOrder: 'index', preflight: { target: 8 } });
    expect(requests.some((r) => r.instance.level === 8)).toBe(false);
    expect(ours.calls).toBe(authors.calls - 1);
    expect(ours.callsSaved).toBe(1);
    const headline = (r: typeof ours) => [r.cc, r.ccUpper, r.bounded, r.errorBar, r.tiers.map((t) => t.targets)];
    expect(headline(ours)).toEqual(headline(authors));
  });

  it('a wrong but parsed preflight is enough; failing tier 32 gives cc 0, upper 32, bar {0, 32}', async () => {
    const result = await runSccAssay(
      subject(() => ({ text: '7', finishReason: 'stop' })),
      { seed: 7 },
    );
    expect(result).toMatchObject({
      skipped: false,
      cc: 0,
      ccUpper: 32,
      bounded: true,
      errorBar: { lower: 0, upper: 32 },
    });
    expect(result.tiers.map((t) => t.center)).toEqual([32]);
  });

  it('passes every tier up to maxLength and reports an unbounded cc', async () => {
    const result = await runSccAssay(subject(exact), { seed: 7, maxLength: 300 });
    expect(result.tiers.map((t) => t.center)).toEqual([32, 64, 128, 256, 300]);
    expect(result).toMatchObject({ cc: 300, ccUpper: null, bounded: false, errorBar: { lower: 30, upper: 30 } });
  });

  it('doubles the budget while the answer is cut without an integer, and learns the budget', async () => {
    const requests: TrialRequest[] = [];
    const answer: Answer = (r) =>
      r.maxOutputTokens < 16384 ? { text: 'Let me count', finishReason: 'length' } : exact(r);
    const result = await runSccAssay(subject(answer, requests), {
      seed: 7,
      maxLength: 64,
      schedule: 'batch-barrier',
      preflight: 'first',
    });
    expect(result.preflight).toMatchObject({
      retryCount: 2,
      requestedMaxOutputTokens: 4096,
      finalMaxOutputTokens: 16384,
    });
    expect(result.learnedMaxOutputTokens).toBe(16384);
    const first = result.tiers[0].trials[0];
    expect(first).toMatchObject({ retryCount: 0, requestedMaxOutputTokens: 16384, parsed: first.target });
    expect(requests.slice(0, 3).map((r) => r.maxOutputTokens)).toEqual([4096, 8192, 16384]);
  });

  it('a cut answer that holds any integer is scored as is, not doubled', async () => {
    const result = await runSccAssay(
      subject(() => ({ text: 'groups of (10) and', finishReason: 'length' })),
      {
        seed: 7,
      },
    );
    expect(result.preflight).toMatchObject({
      parsed: 10,
      retryCount: 0,
      status: 'incomplete',
      detail: 'max_output_tokens',
    });
  });

  it('stops a tier by the authors’ abort rule after an exhausted retry ladder', async () => {
    const answer: Answer = (r) => (r.instance.level === 8 ? exact(r) : { text: '', finishReason: 'length' });
    const result = await runSccAssay(subject(answer), { seed: 7, schedule: 'batch-barrier', exactPeerCalls: true });
    const tier = result.tiers[0];
    expect(tier.trials).toHaveLength(1);
    expect(tier.trials[0]).toMatchObject({
      retryCount: 3,
      finalMaxOutputTokens: 32768,
      detail: 'max_output_tokens|retry_limit_reached',
      format: 'token-limit',
    });
    expect(tier).toMatchObject({ abortRuleStopped: true, passed: false });
  });

  it('turns transport errors into unparsed error trials that fail the tier', async () => {
    const answer: Answer = (r) => (r.instance.level === 8 || r.trialIndex !== 3 ? exact(r) : 'error');
    const result = await runSccAssay(subject(answer), { seed: 7, exactPeerCalls: true });
    expect(result.tiers[0].trials[3]).toMatchObject({ status: 'error', parsed: null, format: 'api' });
    expect(result.tiers[0].passed).toBe(false);
  });

  it('is deterministic: same seed, same result', async () => {
    const a = await runSccAssay(subject(exact), { seed: 3, maxLength: 200 });
    const b = await runSccAssay(subject(exact), { seed: 3, maxLength: 200 });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });
});
