import type { ProjectGates } from '../config/schema.js';
import type { GateResult } from '../schema/gate.js';
import { crossSubjectGates, type GatedEntry } from './cross-subject.js';
import { servedModelGates } from './served-model.js';
import { type GateScope, unevaluatedGates } from './unevaluated.js';

export interface RunGatesInput {
  configured: Readonly<Record<string, ProjectGates>>;
  /** The run's finished tests. */
  entries: readonly GatedEntry[];
  /** The threshold gates the tests evaluated on their records (as the report keeps them). */
  measured: readonly GateResult[];
  scope: GateScope;
  /** The run seed (the notWorseThan bootstrap's root). */
  seed: number;
  resamples?: number;
}

/**
 * Every gate result of a run: what the tests evaluated, the gates across subjects, and each configured hard gate
 * nothing evaluated (failed, with why). The exit code is `hardFailures` of this, whatever route the run took.
 */
export function decideRunGates(input: RunGatesInput): GateResult[] {
  const cross = crossSubjectGates(input.configured, input.entries, input.seed, input.resamples);
  const served = servedModelGates(input.configured, input.entries);
  const decided = [...input.measured, ...cross, ...served];
  return [...decided, ...unevaluatedGates(input.configured, input.scope, decided)];
}
