// The gates: one pure module deciding every verdict of a run (below the Vitest glue and the report; it imports
// neither). The fit tests evaluate threshold gates on their records; the report adds the gates across subjects
// and the configured gates nothing evaluated; merge and compare read verdicts from here.
export * from './checks.js';
export { crossSubjectGates, type GatedEntry } from './cross-subject.js';
export { decideRunGates, type RunGatesInput } from './decide.js';
export { gateKeyCovers, gatesFor, unknownGateKeys } from './keys.js';
export { configuredGatesOf, normalizeNotWorseThan, normalizeThreshold, type Threshold } from './normalize.js';
export { servedModelGates } from './served-model.js';
export { evaluateGates, type GateRecord, gateLine, THRESHOLD_GATES } from './threshold.js';
export { UNDECIDED, undecidedPasses } from './undecided.js';
export { type GateScope, unevaluatedGates } from './unevaluated.js';
export { hardFailures, VerdictError } from './verdict.js';
