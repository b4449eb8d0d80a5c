import type { ChainUsage } from '../../src/schema/chain-usage.js';
import type { AssayUsage, SccAssayRecord, SccRecord } from '../../src/schema/report.js';
import type { Billable } from './billable.js';

/**
 * What an SCC record or a secondary assay's spent, as the units the accounts price (./spend.ts): each
 * trial keeps the usage of every call it made (`usage`, its budget doublings included). A trial of a record
 * written before ceilingbench kept that is `unrecorded`: its calls are counted as recorded (1 + doublings), its
 * tokens are unknown (the final call's alone are shown, apart) and it makes its group's cost unknown.
 */

/** A trial's calls, as one unit per kind: those sent in this run, those answered from the response cache. */
export function billablesOfChain(chain: ChainUsage): Billable[] {
  const units: Billable[] = [];
  // what the chain's responses billed without an answer goes with its paid unit
  const noAnswer = chain.billedNoAnswer ? { billedNoAnswer: chain.billedNoAnswer } : {};
  if (chain.fromCache.calls > 0)
    units.push({ cacheHit: true, attempts: 0, usage: chain.fromCache.usage, answered: true });
  if (chain.paid.calls > 0)
    units.push({ cacheHit: false, attempts: chain.attempts, usage: chain.paid.usage, answered: true, ...noAnswer });
  // requests sent for a call that failed: counted as calls, with no answer's tokens (as a cell's api trial)
  else if (chain.attempts > 0)
    units.push({ cacheHit: false, attempts: chain.attempts, usage: null, answered: false, ...noAnswer });
  return units;
}

const unrecorded = (attempts: number, answered: boolean): Billable => ({
  cacheHit: false,
  attempts,
  usage: null,
  answered,
  unrecorded: true,
});

/** What a record spent: its units, its final-call figures (kept as before), the trials that kept no usage. */
export interface AssaySpent {
  billables: Billable[];
  usage: Omit<AssayUsage, 'records'>;
}

const sumOf = (values: ReadonlyArray<number | null>): number => values.reduce<number>((s, v) => s + (v ?? 0), 0);

/**
 * What an SCC record or a secondary assay's spent, read from its result (validated against its assay's schema when
 * the report was read: src/schema/read-report.ts).
 */
export function assaySpentOf(record: SccRecord | SccAssayRecord): AssaySpent {
  if (record.kind === 'sccAssay' && record.assay === 'motif') {
    const { rows } = record.result;
    const billables = rows.flatMap((row) =>
      row.usage ? row.usage.flatMap(billablesOfChain) : Array.from({ length: row.calls }, () => unrecorded(1, true)),
    );
    const unrecordedTrials = rows.reduce((s, r) => s + (r.usage ? 0 : r.calls), 0);
    const trials = rows.reduce((s, r) => s + r.calls, 0);
    const usage = { trials, finalCallPromptTokens: null, finalCallCompletionTokens: null };
    return { billables, usage: { ...usage, ...(unrecordedTrials > 0 ? { unrecordedTrials } : {}) } };
  }
  if (record.kind === 'scc') {
    const { preflight, tiers, stopped, calls } = record.result;
    const stoppedTier = stopped?.at === 'tier' ? stopped.tier : null;
    const trials = [
      ...(preflight ? [preflight] : []),
      ...tiers.flatMap((t) => t.trials),
      ...(stoppedTier?.trials ?? []),
    ];
    // the calls that answered before a refusal (budget doublings of the refused trials) were sent, and billed
    const unanswered = [
      ...tiers.flatMap((t) => t.abortedUsage ?? []),
      ...(stoppedTier ? [...stoppedTier.abortedUsage, ...stoppedTier.notSentUsage] : []),
      ...(stopped?.at === 'preflight' ? [stopped.usage] : []),
    ];
    const billables = [
      ...trials.flatMap((t) =>
        t.usage ? billablesOfChain(t.usage) : [unrecorded(1 + t.retryCount, t.status !== 'error')],
      ),
      ...unanswered.flatMap(billablesOfChain),
    ];
    let unrecordedTrials = trials.filter((t) => !t.usage).length;
    // an old record: the trials aborted by the early decision left no record, only their count in `calls`
    if (unrecordedTrials > 0 && tiers.some((t) => t.abortedUsage === undefined)) {
      const aborted = Math.max(0, calls - trials.length);
      billables.push(...Array.from({ length: aborted }, () => unrecorded(1, false)));
      unrecordedTrials += aborted;
    }
    return {
      billables,
      usage: {
        trials: calls,
        finalCallPromptTokens: sumOf(trials.map((t) => t.inputTokens)),
        finalCallCompletionTokens: sumOf(trials.map((t) => t.tokens)),
        ...(unrecordedTrials > 0 ? { unrecordedTrials } : {}),
      },
    };
  }
  // a dual-task or agent trial: the response fields both share
  const { trials } = record.result;
  const unrecordedTrials = trials.filter((t) => !t.usage).length;
  return {
    billables: trials.flatMap((t) => (t.usage ? billablesOfChain(t.usage) : [unrecorded(1, t.answered)])),
    usage: {
      trials: trials.length,
      finalCallPromptTokens: sumOf(trials.map((t) => t.inputTokens)),
      finalCallCompletionTokens: sumOf(trials.map((t) => t.outputTokens)),
      ...(unrecordedTrials > 0 ? { unrecordedTrials } : {}),
    },
  };
}

/** What an SCC record or a secondary assay's keeps of its usage, as shown next to its priced spend. */
export const assayUsageOf = (record: SccRecord | SccAssayRecord): Omit<AssayUsage, 'records'> =>
  assaySpentOf(record).usage;
