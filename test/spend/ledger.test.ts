import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type SpendAmount, type SpendLimits, spendLimitReportSchema } from '../../src/schema/spend.js';
import { MAX_RESERVE, SpendLedger, stopLine, type TrialClaim } from '../../src/spend/ledger.js';
import { costOf } from '../../src/spend/price.js';

/** A trial of `prompt` tokens and an output budget of `output`, at `price` per million (null: unpriced). */
function claimOf(
  prompt: number,
  output: number,
  attempts = 6,
  price: { input: number; output: number } | null = null,
): TrialClaim {
  const cost = (p: number, c: number) =>
    price === null ? null : costOf({ prompt: p, cachedPrompt: 0, completion: c, reasoning: 0 }, price);
  return {
    floor: { calls: 1, tokens: prompt, costUsd: cost(prompt, 0) },
    cap: { calls: attempts, tokens: prompt + output, costUsd: cost(prompt, output) },
  };
}

const spent = (calls: number, tokens: number, costUsd: number | null = null): SpendAmount => ({
  calls,
  tokens,
  costUsd,
});

function admitted(ledger: SpendLedger, claim: TrialClaim): number {
  const a = ledger.admit(claim);
  if (!a.admitted) throw new Error(`refused: ${a.reason}`);
  return a.id;
}

describe('SpendLedger: the launch rule', () => {
  it('maxCalls: admits while settled requests + trials in flight < maxCalls, then refuses every later trial', () => {
    const ledger = new SpendLedger({ maxCalls: 3 });
    const a = admitted(ledger, claimOf(10, 100));
    const b = admitted(ledger, claimOf(10, 100));
    const c = admitted(ledger, claimOf(10, 100));
    // 0 settled + 3 in flight = 3: the fourth would go past the limit
    const refused = ledger.admit(claimOf(10, 100));
    expect(refused).toMatchObject({ admitted: false, stoppedBy: 'maxCalls' });
    expect(refused.admitted ? '' : refused.reason).toBe('not sent: the spending limit --max-calls 3 calls was reached');
    // a trial that settles having sent nothing does not reopen a stopped run: the stop is final
    ledger.settle(a, spent(0, 0));
    expect(ledger.admit(claimOf(10, 100)).admitted).toBe(false);
    ledger.settle(b, spent(1, 60));
    ledger.settle(c, spent(3, 100)); // retried twice
    const report = spendLimitReportSchema.parse(ledger.report());
    expect(report).toEqual({
      limits: { maxCalls: 3 },
      spent: spent(4, 160),
      stoppedBy: 'maxCalls',
      notSent: 2,
      overshoot: { calls: 1, tokens: 0, costUsd: null },
      overshootBound: { calls: 3 * 6, tokens: 3 * 110, costUsd: null },
    });
  });

  it('what a batch pass spent before the run counts against its limits; one it stopped stops the run', () => {
    const ledger = new SpendLedger({ maxCalls: 3 });
    ledger.spentBefore({ spent: spent(2, 500), notSent: 0, stoppedBy: null });
    const a = admitted(ledger, claimOf(10, 100)); // 2 spent + 1 in flight: the limit
    expect(ledger.admit(claimOf(10, 100))).toMatchObject({ admitted: false, stoppedBy: 'maxCalls' });
    ledger.settle(a, spent(1, 60));
    expect(ledger.report()).toMatchObject({ spent: spent(3, 560), stoppedBy: 'maxCalls', notSent: 1 });
    const held = new SpendLedger({ maxCalls: 3 });
    held.spentBefore({ spent: spent(3, 900), notSent: 5, stoppedBy: 'maxCalls' });
    expect(held.admit(claimOf(10, 100)).admitted).toBe(false);
    expect(held.report()).toMatchObject({ spent: spent(3, 900), stoppedBy: 'maxCalls', notSent: 6 });
  });

  it('maxTokens: trials in flight count at their floor (their prompt); settled trials at what they spent', () => {
    const ledger = new SpendLedger({ maxTokens: 1000 });
    const a = admitted(ledger, claimOf(300, 500));
    const b = admitted(ledger, claimOf(300, 500));
    ledger.settle(a, spent(1, 400)); // 400 settled + 300 in flight = 700
    const c = admitted(ledger, claimOf(300, 500)); // 700 < 1000; now 1000 committed
    expect(ledger.admit(claimOf(300, 500))).toMatchObject({ admitted: false, stoppedBy: 'maxTokens' });
    ledger.settle(b, spent(1, 800));
    ledger.settle(c, spent(1, 700));
    const report = ledger.report();
    expect(report.spent.tokens).toBe(1900);
    expect(report.overshoot.tokens).toBe(900);
    expect(report.overshootBound.tokens).toBe(2 * 800); // at most two trials were in flight at once
    expect(report.overshoot.tokens).toBeLessThanOrEqual(report.overshootBound.tokens);
  });

  it('maxTokens: a run that stays under its limit is not stopped, and its overshoot is 0', () => {
    const ledger = new SpendLedger({ maxTokens: 10_000 });
    for (let i = 0; i < 5; i++) ledger.settle(admitted(ledger, claimOf(100, 400)), spent(1, 300));
    expect(ledger.report()).toMatchObject({
      stoppedBy: null,
      notSent: 0,
      spent: spent(5, 1500),
      overshoot: { tokens: 0 },
    });
    expect(stopLine(ledger.report())).toBeNull();
  });

  it('maxCost at a price table: floors and caps are priced, the spend is summed in USD', () => {
    const price = { input: 2, output: 8 }; // USD per million tokens
    const ledger = new SpendLedger({ maxCost: 0.01 });
    const claim = claimOf(1000, 1000, 6, price); // floor $0.002, cap $0.010
    const ids = [admitted(ledger, claim), admitted(ledger, claim), admitted(ledger, claim), admitted(ledger, claim)];
    // 4 × $0.002 = $0.008 committed < $0.01: one more may go; then 5 × $0.002 = $0.01 is the limit
    const last = admitted(ledger, claim);
    expect(ledger.admit(claim)).toMatchObject({ admitted: false, stoppedBy: 'maxCost' });
    for (const id of [...ids, last])
      ledger.settle(
        id,
        spent(1, 1600, costOf({ prompt: 1000, cachedPrompt: 0, completion: 600, reasoning: 0 }, price)),
      );
    const report = ledger.report();
    expect(report.spent.costUsd).toBeCloseTo(5 * 0.0068, 12);
    expect(report.overshoot.costUsd).toBeCloseTo(5 * 0.0068 - 0.01, 12);
    expect(report.overshootBound.costUsd).toBeCloseTo(5 * 0.01, 12);
    expect(stopLine(report)).toMatch(
      /^ceilingbench: stopped by --max-cost — spent \$0\.0340 of \$0\.0100 \(overshoot \$0\.0240, at most \$0\.0500; /,
    );
  });

  it('maxCost: an unpriced trial is never admitted under a cost limit (nothing could hold it to the limit)', () => {
    const ledger = new SpendLedger({ maxCost: 5 });
    expect(ledger.admit(claimOf(10, 10))).toMatchObject({ admitted: false, stoppedBy: 'maxCost' });
  });

  it('without a limit every trial goes; an interrupt stops launching, the trials in flight still settle', () => {
    const ledger = new SpendLedger({});
    const a = admitted(ledger, claimOf(10, 10));
    const b = admitted(ledger, claimOf(10, 10));
    ledger.interrupt();
    expect(ledger.admit(claimOf(10, 10))).toEqual({
      admitted: false,
      stoppedBy: 'interrupt',
      reason: 'not sent: the run was interrupted',
    });
    ledger.settle(a, spent(1, 15));
    ledger.settle(b, spent(2, 18));
    const report = ledger.report();
    expect(report).toMatchObject({ stoppedBy: 'interrupt', notSent: 1, spent: spent(3, 33) });
    expect(stopLine(report)).toBe(
      'ceilingbench: interrupted — spent 3 calls, 33 tokens; 1 trial not sent (outcome budget, missing data); ' +
        'rerun to resume from the response cache (answered trials are not paid again)',
    );
  });

  it('a limit reached before an interrupt stays what stopped the run', () => {
    const ledger = new SpendLedger({ maxCalls: 1 });
    admitted(ledger, claimOf(1, 1));
    expect(ledger.admit(claimOf(1, 1)).admitted).toBe(false);
    ledger.interrupt();
    expect(ledger.report().stoppedBy).toBe('maxCalls');
  });

  it('a trial that spent more than its declared cap widens the cap, so the bound still holds', () => {
    const ledger = new SpendLedger({ maxTokens: 100 });
    const a = admitted(ledger, claimOf(50, 20));
    const b = admitted(ledger, claimOf(50, 20)); // 50 committed < 100; now 100
    expect(ledger.admit(claimOf(1, 1)).admitted).toBe(false);
    ledger.settle(a, spent(1, 400)); // the prompt was far longer than its estimate
    ledger.settle(b, spent(1, 50));
    const report = ledger.report();
    expect(report.overshoot.tokens).toBe(350);
    expect(report.overshootBound.tokens).toBe(2 * 400);
  });

  it('reserves in advance only while every limit is out of reach at every cap, and never refuses or stops', () => {
    const ledger = new SpendLedger({ maxCalls: 100 });
    const claim = claimOf(10, 100); // cap: 6 calls
    // 16 × 6 = 96 < 100, 17 × 6 = 102: the 17th could take the run past its limit
    expect(ledger.reserve(claim, MAX_RESERVE)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    expect(ledger.reserve(claim, 1)).toEqual([]);
    expect(ledger.inFlight).toBe(16);
    // reserved admissions count at floor 0 in the launch rule (a reserve may come back unused): trials asking one
    // by one are admitted as without a reserve, 100 of them, and the run stops at its limit
    const asked: number[] = [];
    for (let a = ledger.admit(claim); a.admitted; a = ledger.admit(claim)) asked.push(a.id);
    expect(asked).toHaveLength(100);
    expect(ledger.report()).toMatchObject({ stoppedBy: 'maxCalls', notSent: 1, overshootBound: { calls: 116 * 6 } });
    // the reserve returned unused settles at 0: a stopped run has still spent at least its limit, exactly
    for (let id = 1; id <= 16; id++) ledger.settle(id, spent(0, 0));
    for (const id of asked) ledger.settle(id, spent(1, 20));
    expect(ledger.report().spent).toEqual(spent(100, 2000));
    expect(ledger.inFlight).toBe(0);
  });

  it('a reserved admission a trial took counts at that trial’s floor, and its cap in the bound, once told', () => {
    const ledger = new SpendLedger({ maxCalls: 100 });
    const claim = claimOf(10, 100);
    const reserved = ledger.reserve(claim, 4);
    for (const id of reserved) ledger.use(id, claimOf(10, 3000));
    ledger.use(999, claimOf(10, 9000)); // not in flight: nothing
    let asked = 0;
    while (ledger.admit(claim).admitted) asked++;
    expect(asked).toBe(96);
    expect(ledger.report().overshootBound.tokens).toBe(100 * 3010);
  });

  it('without a limit a reserve is granted up to MAX_RESERVE; once stopped none is, and whenStopped tells', async () => {
    const ledger = new SpendLedger({});
    expect(ledger.reserve(claimOf(1, 1), 1000)).toHaveLength(MAX_RESERVE);
    const stopped = ledger.whenStopped();
    ledger.interrupt();
    await expect(stopped).resolves.toBe('interrupt');
    await expect(ledger.whenStopped()).resolves.toBe('interrupt');
    expect(ledger.reserve(claimOf(1, 1), 4)).toEqual([]);
    expect(ledger.report().notSent).toBe(0);
  });

  it('settling twice, or an id it never admitted, changes nothing', () => {
    const ledger = new SpendLedger({});
    const a = admitted(ledger, claimOf(1, 1));
    ledger.settle(a, spent(1, 2));
    ledger.settle(a, spent(1, 2));
    ledger.settle(999, spent(5, 5));
    expect(ledger.report().spent).toEqual(spent(1, 2));
  });
});

/**
 * One step of a run as the ledger sees it: a trial asks (or takes an admission from a worker's reserve), a worker
 * reserves admissions as a claim of its own, returns one unused, or the k-th trial in flight settles.
 */
type Step =
  | { kind: 'admit'; prompt: number; output: number; attempts: number; fromReserve: boolean }
  | { kind: 'reserve'; count: number; prompt: number; output: number; attempts: number }
  | { kind: 'return' }
  | { kind: 'settle'; pick: number; calls: number; used: number };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('admit' as const),
    prompt: fc.integer({ min: 0, max: 500 }),
    output: fc.integer({ min: 1, max: 2000 }),
    attempts: fc.integer({ min: 1, max: 6 }),
    fromReserve: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('reserve' as const),
    count: fc.integer({ min: 1, max: 16 }),
    prompt: fc.integer({ min: 0, max: 500 }),
    output: fc.integer({ min: 1, max: 2000 }),
    attempts: fc.integer({ min: 1, max: 6 }),
  }),
  fc.record({ kind: fc.constant('return' as const) }),
  fc.record({
    kind: fc.constant('settle' as const),
    pick: fc.nat(),
    calls: fc.integer({ min: 0, max: 6 }),
    used: fc.double({ min: 0, max: 1, noNaN: true }),
  }),
);

describe('SpendLedger: the overshoot bound, for any interleaving of trials', () => {
  it('spent − limit never exceeds overshootBound (trials in flight × the per-trial cap), and a stopped run spent ≥ its limit, with reserves too', () => {
    fc.assert(
      fc.property(
        fc.record({ maxCalls: fc.integer({ min: 1, max: 40 }), maxTokens: fc.integer({ min: 1, max: 20_000 }) }),
        fc.constantFrom<(keyof SpendLimits)[]>(['maxCalls'], ['maxTokens'], ['maxCalls', 'maxTokens']),
        fc.array(stepArb, { maxLength: 200 }),
        (values, which, steps) => {
          const limits: SpendLimits = Object.fromEntries(which.map((k) => [k, values[k as 'maxCalls' | 'maxTokens']]));
          const ledger = new SpendLedger(limits);
          const open: { id: number; claim: TrialClaim }[] = [];
          const settle = (index: number, calls: number, used: number) => {
            const [{ id, claim }] = open.splice(index, 1);
            // a trial spends between its floor and its cap: at least one request and its prompt
            const tokens = claim.floor.tokens + Math.floor(used * (claim.cap.tokens - claim.floor.tokens));
            ledger.settle(id, spent(Math.max(1, Math.min(calls, claim.cap.calls)), tokens));
          };
          const reserve: number[] = [];
          for (const step of steps) {
            if (step.kind === 'admit') {
              // a trial's own claim may be wider than the one its reserved admission was granted as
              const claim = claimOf(step.prompt, step.output, step.attempts);
              const local = step.fromReserve ? reserve.pop() : undefined;
              if (local !== undefined) {
                open.push({ id: local, claim });
                if (step.prompt % 2 === 0) ledger.use(local, claim); // told, or not yet
              } else {
                const a = ledger.admit(claim);
                if (a.admitted) open.push({ id: a.id, claim });
              }
            } else if (step.kind === 'reserve') {
              reserve.push(...ledger.reserve(claimOf(step.prompt, step.output, step.attempts), step.count));
            } else if (step.kind === 'return') {
              const id = reserve.pop();
              if (id !== undefined) ledger.settle(id, spent(0, 0));
            } else if (open.length > 0) settle(step.pick % open.length, step.calls, step.used);
          }
          for (const id of reserve) ledger.settle(id, spent(0, 0));
          while (open.length > 0) settle(0, 6, 1);
          const report = ledger.report();
          expect(report.overshoot.calls).toBeLessThanOrEqual(report.overshootBound.calls);
          expect(report.overshoot.tokens).toBeLessThanOrEqual(report.overshootBound.tokens);
          if (report.stoppedBy === 'maxCalls')
            expect(report.spent.calls).toBeGreaterThanOrEqual(limits.maxCalls as number);
          if (report.stoppedBy === 'maxTokens')
            expect(report.spent.tokens).toBeGreaterThanOrEqual(limits.maxTokens as number);
        },
      ),
      { numRuns: 300, seed: 19 },
    );
  });
});

describe('stopLine', () => {
  it('names the limit, spent vs limit, the overshoot and its bound, the trials not sent and the resume', () => {
    const ledger = new SpendLedger({ maxCalls: 100 });
    const ids = Array.from({ length: 100 }, () => admitted(ledger, claimOf(1000, 2048)));
    for (let i = 0; i < 7; i++) ledger.admit(claimOf(1000, 2048));
    for (const id of ids) ledger.settle(id, spent(1, 1500));
    expect(stopLine(ledger.report())).toBe(
      'ceilingbench: stopped by --max-calls — spent 100 calls of 100 calls (overshoot 0 calls, at most 600 calls; ' +
        'run total 100 calls, 150,000 tokens); 7 trials not sent (outcome budget, missing data); ' +
        'rerun with a larger limit to resume from the response cache (answered trials are not paid again)',
    );
  });
});
