import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildReport } from '../../reporters/projections/build.js';
import { sccTable } from '../../reporters/projections/html/tables.js';
import { renderJunit } from '../../reporters/projections/junit.js';
import { renderMarkdown } from '../../reporters/projections/markdown.js';
import { sccRecordOf } from '../../src/assays/scc/record.js';
import { runSccAssay, type SccAssayOptions } from '../../src/assays/scc/run.js';
import { type SccResult, sccResultSchema } from '../../src/assays/scc/schema.js';
import {
  agentRecord,
  dualTaskRecord,
  motifRecord,
  runAgentAssay,
  runDualTaskAssay,
  runMotifAblation,
} from '../../src/assays/scc-secondary/index.js';
import { agentAssaySchema, dualTaskSchema, motifAblationSchema } from '../../src/assays/scc-secondary/schema.js';
import { evaluateGates } from '../../src/gates/index.js';
import { buildLeaderboard } from '../../src/leaderboard/index.js';
import type { SccBoard } from '../../src/schema/leaderboard.js';
import type { SccRecord } from '../../src/schema/report.js';
import { sccRecordSchema } from '../../src/schema/report.js';
import type { Subject, TrialResponse } from '../../src/subjects/subject.js';
import { ceilingbenchMatchers } from '../../src/vitest/matchers.js';
import { emptySeen, RUN_INFO, recordEntry, recording, type Seen } from '../support/spend-subjects.js';
import { type ScriptedModel, scriptedSubject } from './helpers.js';

/**
 * An SCC ladder the run's spend ledger stops (a spending limit reached, or Ctrl-C) returns a result marked
 * `stopped`: the tiers with a verdict, the stopped tier's answered trials, and no measured CC.
 */
const REASON = 'not sent: the spending limit --max-calls K was reached';
const MODEL: ScriptedModel = { capacity: 60, blank: 0.2, cut: 0.3, salt: 3 };

/** `inner` behind a ledger that answers `not-sent` from the (k+1)-th call on, as the openai subject does. */
function refuseAfter(inner: Subject, k: number): Subject {
  let calls = 0;
  return {
    identity: inner.identity,
    answer: async (request): Promise<TrialResponse> =>
      calls++ < k ? inner.answer(request) : { kind: 'not-sent', reason: REASON, latencyMs: 0, attempts: 0 },
  };
}

const recordOf = (result: SccResult): SccRecord => sccRecordSchema.parse(sccRecordOf(result));

async function run(model: ScriptedModel, k: number, options: Partial<SccAssayOptions> = {}) {
  const seen: Seen = emptySeen();
  const subject = refuseAfter(recording(scriptedSubject(model), seen), k);
  const result = sccResultSchema.parse(await runSccAssay(subject, { seed: 7, ...options }));
  return { result, seen };
}

/** What the finished ladder does with no limit: its tiers and the calls it makes. */
async function unlimited(model: ScriptedModel, options: Partial<SccAssayOptions> = {}) {
  return run(model, Number.POSITIVE_INFINITY, options);
}

const pathOf = (r: SccResult) => r.tiers.map((t) => [t.phase, t.center, t.passed]);
const highestPassed = (r: SccResult) => r.tiers.reduce((m, t) => (t.passed ? Math.max(m, t.center) : m), 0);

describe('an SCC ladder stopped by the spend ledger', () => {
  it('returns the tiers before the stop, the stopped tier’s answered trials, and no measured CC', async () => {
    const full = await unlimited(MODEL);
    expect(full.result.stopped).toBeUndefined();
    expect(full.result.tiers.length).toBeGreaterThan(2);
    const k = Math.floor(full.seen.requests / 2);
    const { result, seen } = await run(MODEL, k);
    expect(seen.requests).toBe(k);
    expect(result.stopped).toMatchObject({ by: 'budget', reason: REASON, at: 'tier' });
    const stopped = result.stopped;
    if (stopped?.at !== 'tier') throw new Error('expected a stop inside a tier');
    expect(stopped.tiers).toBe(result.tiers.length);
    // the tiers with a verdict are the finished ladder's, and the stopped tier is its next one
    expect(pathOf(result)).toEqual(pathOf(full.result).slice(0, result.tiers.length));
    expect(stopped.tier.center).toBe(full.result.tiers[result.tiers.length].center);
    expect(stopped.tier.notSentUsage.length).toBeGreaterThan(0);
    expect(stopped.tier.notSentUsage.every((u) => u.end === 'not-sent')).toBe(true);
    expect(result).toMatchObject({ cc: highestPassed(result), ccLower: highestPassed(result), ccUpper: null });
    expect(result.bounded).toBe(false);
  });

  it('stops at the preflight too: up front, or deferred after a failed first tier', async () => {
    const first = await run(MODEL, 0, { preflight: 'first' });
    expect(first.result.stopped).toMatchObject({ at: 'preflight', tiers: 0 });
    expect(first.result.tiers).toEqual([]);
    const weak: ScriptedModel = { ...MODEL, capacity: 2, cut: 0 };
    const full = await unlimited(weak);
    expect(full.result.preflight).toBeDefined();
    // every call but the preflight's: the first tier fails, then the deferred preflight is refused
    const { result } = await run(weak, full.seen.requests - 1);
    expect(result.stopped).toMatchObject({ at: 'preflight', tiers: 1 });
    expect(result).toMatchObject({ cc: 0, ccUpper: null, skipped: false });
    expect(result.preflight).toBeUndefined();
  });

  it('property: over any K, never a CC above the completed tiers, never a ccUpper; unstopped = finished', async () => {
    const full = await unlimited(MODEL, { concurrency: 3 });
    let stops = 0;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: full.seen.requests + 2 }), async (k) => {
        const { result, seen } = await run(MODEL, k, { concurrency: 3 });
        expect(seen.requests).toBe(Math.min(k, full.seen.requests));
        // a refusal can only land on a trial the early decision had already aborted: then the ladder finished
        if (result.stopped === undefined) {
          expect([pathOf(result), result.cc, result.ccUpper]).toEqual([
            pathOf(full.result),
            full.result.cc,
            full.result.ccUpper,
          ]);
          return;
        }
        stops++;
        expect(k).toBeLessThan(full.seen.requests);
        expect(result.stopped.by).toBe('budget');
        expect(result.cc).toBe(highestPassed(result));
        expect(result.ccLower).toBe(result.cc);
        expect(result.cc).toBeLessThanOrEqual(full.result.cc);
        expect(result.ccUpper).toBeNull();
        expect(result.bounded).toBe(false);
        expect(pathOf(result)).toEqual(pathOf(full.result).slice(0, result.tiers.length));
      }),
      { numRuns: 25, seed: 11 },
    );
    expect(stops).toBeGreaterThan(10);
  });

  it('its spend counts every request the subject saw, the stopped tier’s included', async () => {
    const full = await unlimited(MODEL);
    const k = Math.floor((2 * full.seen.requests) / 3);
    const { result, seen } = await run(MODEL, k);
    expect(result.stopped?.at).toBe('tier');
    const report = buildReport([recordEntry(recordOf(result), scriptedSubject(MODEL).identity)], RUN_INFO);
    expect(seen.requests).toBe(k);
    expect(report.spend?.total).toMatchObject({
      calls: seen.attempts,
      paid: { prompt: seen.prompt, completion: seen.completion },
    });
    expect(report.spend?.total.calls).toBe(k);
  });

  it('leaves its gate unevaluated (a failed hard gate, no estimate), and is unranked on the board', async () => {
    const full = await unlimited(MODEL);
    const stopped = recordOf((await run(MODEL, Math.floor(full.seen.requests / 2))).result);
    const finished = recordOf(full.result);
    const [gate] = evaluateGates('scc', stopped, { minCountingCapacity: 1 });
    expect(gate).toMatchObject({ passed: false, estimate: null });
    expect(gate.message).toMatch(/not evaluated — counting capacity stopped after \d+ tiers? \(not sent/);
    expect(evaluateGates('scc', finished, { minCountingCapacity: 1 })[0].passed).toBe(true);
    // the matcher fails on it with and without `.not` (Vitest inverts `pass` under `.not`)
    const matcher = ceilingbenchMatchers.toHaveCountingCapacityAtLeast;
    for (const isNot of [false, true]) {
      const outcome = await matcher.call({ isNot }, stopped, 1);
      expect(outcome.pass).toBe(isNot);
      expect(outcome.message()).toMatch(/not evaluated/);
    }

    const subjectOf = (subject: string, record: SccRecord) => ({
      subject,
      seed: 0,
      cells: [],
      fits: [],
      collapse: [],
      scc: [record],
    });
    const board = buildLeaderboard([subjectOf('stopped', stopped), subjectOf('finished', finished)]).projects[0]
      .boards[0] as SccBoard;
    expect(board.entries.map((e) => [e.subject, e.rank, e.status])).toEqual([
      ['finished', 1, 'ok'],
      ['stopped', null, 'insufficient'],
    ]);
    expect(board.entries[1].insufficientReason).toMatch(/^stopped after \d+ tiers? \(not sent: the spending limit/);
    expect(board.comparisons).toEqual([]);
  });

  it('summary.md, the HTML table and JUnit say it stopped instead of showing a CC', async () => {
    const full = await unlimited(MODEL);
    const { result } = await run(MODEL, Math.floor(full.seen.requests / 2));
    const entry = recordEntry(recordOf(result), scriptedSubject(MODEL).identity);
    const report = buildReport([entry], RUN_INFO);
    const md = renderMarkdown(report);
    expect(md).toContain(`count: stopped after ${result.tiers.length} tier`);
    expect(md).not.toMatch(/CC = /);
    const html = sccTable(report);
    expect(html).toContain(`stopped after ${result.tiers.length} tier`);
    expect(html).toContain(`≥ ${result.ccLower} (lower bound only)`);
    const xml = renderJunit(report, [entry]);
    expect(xml).toContain('name="stopped"');
    expect(xml).not.toContain('counting_capacity');
  });

  it('the motif ablation keeps the motifs run, marks the stopped one, runs none after it, takes no ratio of it', async () => {
    const motifs = ['baseline-a-comma', 'letter-b-comma', 'letter-x-comma'];
    const seen: Seen = emptySeen();
    const fullRun = await runMotifAblation(recording(scriptedSubject(MODEL), seen), { seed: 7, motifs });
    expect(fullRun.stopped).toBeUndefined();
    const perMotif = fullRun.rows.map((r) => r.calls);
    // a limit that falls inside the second motif's ladder
    const k = perMotif[0] + 3;
    const limited: Seen = emptySeen();
    const subject = refuseAfter(recording(scriptedSubject(MODEL), limited), k);
    const result = motifAblationSchema.parse(await runMotifAblation(subject, { seed: 7, motifs }));
    expect(result.rows.map((r) => [r.motif, r.stopped?.by ?? null])).toEqual([
      ['baseline-a-comma', null],
      ['letter-b-comma', 'budget'],
    ]);
    expect(result.rows[0]).toEqual(fullRun.rows[0]);
    expect(result.rows[1]).toMatchObject({ relativeCc: null, ccUpper: null });
    expect(result.stopped).toMatchObject({ motif: 'letter-b-comma', notRun: ['letter-x-comma'], reason: REASON });
    const record = motifRecord(result);
    expect(record.summary).toMatchObject({ cc_letter_b_comma: null, stopped_motif: 'letter-b-comma' });
    expect(record.summary.max_cc).toBe(fullRun.rows[0].cc);
    const report = buildReport([recordEntry(record, scriptedSubject(MODEL).identity)], RUN_INFO);
    expect(limited.requests).toBe(k);
    expect(report.spend?.total.calls).toBe(k);
  });

  it('dual-task and agent: the trials not sent are missing data, counted with the reason on the result', async () => {
    const plain: Subject = {
      identity: { spec: 'plain', kind: 'sim', parameters: {} },
      answer: async () => ({
        kind: 'answer',
        text: '7',
        finishReason: 'stop',
        latencyMs: 0,
        cacheHit: false,
        attempts: 1,
        usage: { promptTokens: 5, completionTokens: 1 },
      }),
    };
    const k = 3;
    const dual = dualTaskSchema.parse(
      await runDualTaskAssay(refuseAfter(plain, k), { seed: 23, counts: [32, 40], concurrency: 1 }),
    );
    expect(dual.stopped).toEqual({ by: 'budget', reason: REASON, notSent: dual.trials.length - k });
    expect(dual.trials.filter((t) => !t.answered)).toHaveLength(dual.trials.length - k);
    expect(dualTaskRecord(dual).summary).toMatchObject({ not_sent: dual.trials.length - k, stopped: REASON });
    const agent = agentAssaySchema.parse(
      await runAgentAssay(refuseAfter(plain, k), { seed: 17, taskSamples: 1, concurrency: 1 }),
    );
    expect(agent.stopped).toEqual({ by: 'budget', reason: REASON, notSent: agent.trials.length - k });
    expect(agentRecord(agent).summary).toMatchObject({ not_sent: agent.trials.length - k });
    const finished = await runDualTaskAssay(plain, { seed: 23, counts: [32, 40], concurrency: 1 });
    expect(finished.stopped).toBeUndefined();
  });
});
