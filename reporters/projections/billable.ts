import type { Usage } from '../../src/schema/trial.js';

/**
 * What the accounts (./spend.ts) price: a cell's trial, or the calls of an assay trial of one kind
 * (./assay-spend.ts). `usage` null on an answered unit: its provider reported none (counted in `unknownUsage`, in
 * no sum). `unrecorded`: a unit of a record written before its usage was kept: in `unknownUsage` too, and its
 * cost is unknown (null), never 0.
 */
export interface Billable {
  cacheHit: boolean;
  /** Requests sent, retries included (0 for a cache hit). */
  attempts: number;
  usage: Usage | null;
  /** False for missing data (an api failure, a trial never sent): no usage is expected. */
  answered: boolean;
  unrecorded?: boolean;
  /** Tokens billed by the unit's responses that brought no answer (its failed attempts); part of what it paid. */
  billedNoAnswer?: Usage;
  /** Answered through the provider's batch API (`run --batch`): priced at the batch price, paid or from the cache. */
  batch?: boolean;
}
