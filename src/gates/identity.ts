import type { GateEvidence, GateResult } from '../schema/gate.js';

/**
 * Whether a record was measured the way the configuration says: by its subject, with its seed and prompt profile,
 * and gated at its threshold, mode and evidence. One place for these checks, so that a run, a merge of blobs,
 * `report` and `compare` (and a report's provenance) refuse the same mismatches with the same words.
 */
export interface ExpectedMeasurement {
  subject: string;
  seed: number;
  profile?: string;
}

export interface MeasuredBy {
  subject: string;
  seed: number | null;
  profile?: string;
}

/** What differs between how a record was measured and how the configuration measures it; empty when nothing. */
export function measurementMismatches(expected: ExpectedMeasurement, got: MeasuredBy): string[] {
  const out: string[] = [];
  if (got.subject !== expected.subject)
    out.push(`measured by subject '${got.subject}', not the configured '${expected.subject}'`);
  if (got.seed !== expected.seed)
    out.push(`measured with seed ${got.seed ?? 'unknown'}, not the configured ${expected.seed}`);
  if (expected.profile !== undefined && got.profile !== undefined && got.profile !== expected.profile)
    out.push(`measured with prompt profile '${got.profile}', not '${expected.profile}'`);
  return out;
}

export interface ExpectedGate {
  threshold: number;
  mode: string;
  /** minRetention only: a result that does not say was gated on the point estimate (its default). */
  evidence?: GateEvidence;
}

const EVIDENCE_TEXT: Readonly<Record<GateEvidence, string>> = {
  point: 'point estimate',
  lower: 'CI lower bound',
  test: 'likelihood-ratio test',
};

/** What differs between the gate a test evaluated and the one the configuration sets; empty when nothing. */
export function gateSettingMismatches(
  expected: ExpectedGate,
  got: Pick<GateResult, 'threshold' | 'mode' | 'evidence'>,
): string[] {
  const out: string[] = [];
  if (got.threshold !== expected.threshold || got.mode !== expected.mode)
    out.push(
      `evaluated at ${got.threshold} (${got.mode}), not this configuration's ${expected.threshold} (${expected.mode})`,
    );
  if (expected.evidence !== undefined && (got.evidence ?? 'point') !== expected.evidence)
    out.push(
      `evaluated on the ${EVIDENCE_TEXT[got.evidence ?? 'point']}, not the configured ${EVIDENCE_TEXT[expected.evidence]} (evidence: '${expected.evidence}')`,
    );
  return out;
}
