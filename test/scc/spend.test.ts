import { describe, expect, it } from 'vitest';
import { buildReport } from '../../reporters/projections/build.js';
import { sccRecordOf } from '../../src/assays/scc/record.js';
import { runSccAssay, type SccAssayOptions } from '../../src/assays/scc/run.js';
import type { SccResult } from '../../src/assays/scc/schema.js';
import type { SccRecord } from '../../src/schema/report.js';
import type { SubjectIdentity } from '../../src/schema/subject.js';
import { costOf } from '../../src/spend/price.js';
import type { TrialResponse } from '../../src/subjects/subject.js';
import {
  cutFirstCall,
  emptySeen,
  memoryCache,
  RUN_INFO,
  recordEntry,
  recording,
  type Seen,
} from '../support/spend-subjects.js';
import { scriptedSubject } from './helpers.js';

/**
 * The accounts of an SCC run (ceilingbench.json `spend`) count every request the subject saw: the calls the
 * budget rule made before it doubled a cut answer's budget, and the trials the early decision aborted after
 * they had answered, not only each trial's final call.
 */
const PRICE = { input: 0.5, cachedInput: 0.25, output: 2 };
const MODEL = { capacity: 40, blank: 0.2, cut: 0.4, salt: 5 };
const identity: SubjectIdentity = scriptedSubject(MODEL).identity;

const recordOf = (result: SccResult): SccRecord => sccRecordOf(result);

/** One SCC run through a response cache; `provider`: what reached the subject, `answered`: every answer given. */
async function run(store: Map<string, TrialResponse>, options: Partial<SccAssayOptions>, latencyMs: number) {
  const provider: Seen = emptySeen();
  const answered: Seen = emptySeen();
  const scripted = scriptedSubject({ ...MODEL, latencyMs });
  // every even trial's first call cut at once: with latency, some doublings are still in flight when aborted
  const subject = recording(memoryCache(recording(cutFirstCall(scripted), provider), store), answered);
  const result = await runSccAssay(subject, { seed: 11, ...options });
  const report = buildReport([recordEntry(recordOf(result), identity)], {
    ...RUN_INFO,
    prices: { [identity.spec]: PRICE },
  });
  const spend = report.spend;
  if (!spend) throw new Error('no spend section');
  return { result, spend, provider, answered };
}

/** [name, options, per-request latency (ms): with some, the early decision aborts trials in flight]. */
const cases: [string, Partial<SccAssayOptions>, number][] = [
  ['the authors’ calls', { exactPeerCalls: true }, 0],
  ['early decision, 4 in flight', {}, 0],
  ['early decision, trials aborted in flight', { concurrency: 8 }, 2],
];

describe.each(cases)('SCC spend (%s)', (_, options, latencyMs) => {
  it('counts every request the subject saw, budget doublings included, and prices them', async () => {
    const { result, spend, provider } = await run(new Map(), options, latencyMs);
    // trials aborted after a call had answered: no record, yet that call was paid
    const abortedPaid = result.tiers.flatMap((t) => t.abortedUsage ?? []).filter((u) => u.paid.calls > 0);
    if (latencyMs > 0) expect(abortedPaid.length).toBeGreaterThan(0);
    const trials = [...(result.preflight ? [result.preflight] : []), ...result.tiers.flatMap((t) => t.trials)];
    // the script cuts answers at 4096, so some trials were asked twice: the final calls alone would undercount
    expect(trials.some((t) => t.retryCount > 0)).toBe(true);
    expect(provider.requests).toBeGreaterThan(trials.length);
    const scc = spend.projects.find((p) => p.project === 'scc');
    const tokens = { prompt: provider.prompt, cachedPrompt: 0, completion: provider.completion, reasoning: 0 };
    expect(scc).toMatchObject({ calls: provider.attempts, paid: tokens, fromCache: { trials: 0 }, unknownUsage: 0 });
    expect(scc?.paid.costUsd).toBeCloseTo(costOf(tokens, PRICE), 12);
    expect(spend.total).toMatchObject({ calls: provider.attempts, paid: tokens });
    expect(spend.subjects[0]).toMatchObject({ subject: identity.spec, calls: provider.attempts, paid: tokens });
    expect(spend.assays).toEqual([
      expect.objectContaining({ assay: 'scc', calls: provider.attempts, paid: expect.objectContaining(tokens) }),
    ]);
    expect(spend.priced).toBe(true);
    // the final-call figures stay as the records keep them (the replay and the paper's analyses use them)
    expect(spend.total.assays).toMatchObject({ records: 1, trials: result.calls });
    expect(spend.total.assays?.finalCallCompletionTokens).toBe(result.tokensSpent);
  });
});

describe.each(cases)('SCC spend, rerun through the response cache (%s)', (_, options, latencyMs) => {
  it('pays only for what reached the subject; the rest is from the cache, with what it saved', async () => {
    const store = new Map<string, TrialResponse>();
    const first = await run(store, options, latencyMs);
    const again = await run(store, options, latencyMs);
    expect(again.result.cc).toBe(first.result.cc);
    expect(again.answered.hits).toBeGreaterThan(0);
    const { total } = again.spend;
    expect(total).toMatchObject({
      calls: again.provider.attempts,
      paid: { prompt: again.provider.prompt, completion: again.provider.completion },
      fromCache: {
        prompt: again.answered.prompt - again.provider.prompt,
        completion: again.answered.completion - again.provider.completion,
      },
    });
    // the authors' calls do not depend on timing: every request of the rerun is one the first run sent
    if (options.exactPeerCalls) {
      expect(again.provider.requests).toBe(0);
      const paid = first.spend.total.paid;
      expect(total).toMatchObject({
        paid: { trials: 0, costUsd: 0 },
        fromCache: { trials: paid.trials, prompt: paid.prompt, savedUsd: paid.costUsd },
      });
    }
  });
});
