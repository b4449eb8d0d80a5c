import { describe, expect, it } from 'vitest';
import { SpendTally } from '../../reporters/progress-reporter.js';
import type { CeilingbenchMeta } from '../../src/schema/meta.js';
import type { TrialRecord } from '../../src/schema/trial.js';
import { sccResult, sccTier, sccTrial } from '../support/assay-results.js';
import { cell } from '../support/records.js';

const subject = { spec: 'openai:gpt-4o-mini', kind: 'openai' as const, model: 'gpt-4o-mini', parameters: {} };
const trial = (cacheHit: boolean, promptTokens: number, completionTokens: number): TrialRecord => ({
  task: 'd2',
  level: 5,
  seed: 0,
  trialIndex: 0,
  profile: 'official',
  variant: 'standard',
  outcome: { family: 'ccb', kind: 'correct', answerCorrect: true, kStar: -1, tfbc: false, issues: [] },
  finishReason: 'stop',
  usage: { promptTokens, completionTokens },
  latencyMs: 0,
  cacheHit,
  attempts: cacheHit ? 0 : 1,
});
const meta = (trials: TrialRecord[]): CeilingbenchMeta => ({
  record: cell({ trials, n: trials.length }),
  gates: [],
  subject,
  seed: 0,
});

// The progress line: tokens sent in this run and from the cache apart, the cost so far only when it is known.
describe('the progress line’s spend so far', () => {
  it('adds each finished test: sent tokens, cache hits and their tokens, cost and what the cache saved', () => {
    const tally = new SpendTally({ 'gpt-4o-mini': { input: 0.15, output: 0.6 } });
    tally.add(meta([trial(false, 1000, 500), trial(true, 2000, 1000)]));
    expect(tally.counters()).toBe(
      'calls 1 · tokens 1,500 · cache hits 1 (3,000 tokens) · cost $0.00045 (saved $0.0009)',
    );
    tally.add(meta([trial(false, 100_000, 0)]));
    expect(tally.counters()).toBe(
      'calls 2 · tokens 101,500 · cache hits 1 (3,000 tokens) · cost $0.01545 (saved $0.0009)',
    );
  });

  it('says "usage unknown" when a provider reported none, never "tokens 0"', () => {
    const tally = new SpendTally();
    const silent = { ...trial(false, 0, 0), usage: null };
    tally.add(meta([silent, silent]));
    expect(tally.counters()).toBe('calls 2 · tokens usage unknown · cache hits 0');
    tally.add(meta([trial(false, 10, 5)]));
    expect(tally.counters()).toBe('calls 3 · tokens 15 (+ 2 trials usage unknown) · cache hits 0');
  });

  it('shows no cost without a price (tokens only); an SCC record counts every call, doublings included', () => {
    const tally = new SpendTally();
    tally.add(meta([trial(false, 10, 5)]));
    expect(tally.counters()).toBe('calls 1 · tokens 15 · cache hits 0');
    // a trial asked twice (its first answer cut at the budget): 2 requests, both billed
    const doubled = {
      calls: 2,
      attempts: 2,
      paid: { calls: 2, usage: { promptTokens: 6, completionTokens: 40 } },
      fromCache: { calls: 0, usage: null },
      end: 'answer' as const,
    };
    const hit = {
      calls: 1,
      attempts: 0,
      paid: { calls: 0, usage: null },
      fromCache: { calls: 1, usage: { promptTokens: 3, completionTokens: 2 } },
      end: 'answer' as const,
    };
    const result = sccResult({
      calls: 2,
      tiers: [
        sccTier({
          trials: [sccTrial({ inputTokens: 3, tokens: 20, retryCount: 1, usage: doubled })],
          abortedUsage: [],
        }),
      ],
      preflight: sccTrial({ inputTokens: 3, tokens: 2, usage: hit }),
    });
    tally.add({
      record: { kind: 'scc', project: 'scc', task: 'count', cc: 1, ccLower: 1, ccUpper: 2, bounded: true, result },
      gates: [],
      subject,
      seed: 0,
    });
    expect(tally.counters()).toBe('calls 3 · tokens 61 · cache hits 1 (5 tokens)');
  });
});
