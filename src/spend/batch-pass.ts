import type { SpendAmount, SpendStop } from '../schema/spend.js';

/**
 * What the `ceilingbench run --batch` pass of this process spent before the Vitest run, and what it held back, for the
 * run's spend ledger (src/vitest/run-config.ts): the run's limits count the pass, and the report's limit record says
 * what it spent — the answers its batches brought, at the batch price — and how many trials it did not submit.
 * The pass runs in the main process, where the ledger is created next (a process-wide slot, like the limiters').
 */
export interface BatchPassSpend {
  spent: SpendAmount;
  /** Trials the pass did not submit (a spending limit): outcome `budget`. */
  notSent: number;
  /** The limit that held them, or null. */
  stoppedBy: SpendStop | null;
}

const slot = Symbol.for('ceilingbench.spend.batch-pass');
type Holder = { [slot]?: BatchPassSpend };

/** Adds one subject's pass to this process's (summed over subjects). */
export function recordBatchPass(pass: BatchPassSpend): void {
  const holder = globalThis as Holder;
  const before = holder[slot];
  holder[slot] = before
    ? {
        spent: {
          calls: before.spent.calls + pass.spent.calls,
          tokens: before.spent.tokens + pass.spent.tokens,
          costUsd:
            before.spent.costUsd === null || pass.spent.costUsd === null
              ? null
              : before.spent.costUsd + pass.spent.costUsd,
        },
        notSent: before.notSent + pass.notSent,
        stoppedBy: before.stoppedBy ?? pass.stoppedBy,
      }
    : pass;
}

/** This process's pass, once: the ledger that takes it counts it (a later run in the same process starts clean). */
export function takeBatchPass(): BatchPassSpend | undefined {
  const holder = globalThis as Holder;
  const pass = holder[slot];
  delete holder[slot];
  return pass;
}
