// The gates: one pure module deciding every verdict of a run (below the Vitest glue and the report; it imports
// neither). The fit tests evaluate threshold gates on their records; the evidence manifest (manifest.ts) says which
// records each hard gate needs, and decideVerdict (decide.ts) is the one verdict of a run, a merge, report and compare.
export * from './checks.js';
export { crossSubjectGates, type GatedEntry } from './cross-subject.js';
export { decideVerdict, describeNeed, type Verdict, type VerdictInput } from './decide.js';
export type { DeclaredFit, Evidence, EvidenceRecord } from './evidence.js';
export {
  type ExpectedGate,
  type ExpectedMeasurement,
  gateSettingMismatches,
  measurementMismatches,
} from './identity.js';
export { gateKeyCovers, gatesFor, unknownGateKeys } from './keys.js';
export { type DeclaredProject, deriveManifest, type GridRecord } from './manifest.js';
export { configuredGatesOf, normalizeNotWorseThan, normalizeThreshold, type Threshold } from './normalize.js';
export { servedModelGates } from './served-model.js';
export { evaluateGates, type GateContext, type GateRecord, gateLine, THRESHOLD_GATES } from './threshold.js';
export { UNDECIDED, undecidedPasses } from './undecided.js';
export { hardFailures, VerdictError } from './verdict.js';
