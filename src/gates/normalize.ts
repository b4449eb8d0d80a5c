import {
  CROSS_SUBJECT_GATE_KEYS,
  type GateValue,
  NOT_WORSE_MARGIN,
  type NotWorseThanGate,
  type ProjectGates,
  type ThresholdGateName,
} from '../config/schema.js';
import { DEFAULT_GATE_ALPHA, DEFAULT_GATE_MARGIN, type GateEvidence, type GateMode } from '../schema/gate.js';

/** A threshold gate as configured, in its one full form: a bare number is a hard gate on the point estimate. */
export interface Threshold {
  value: number;
  mode: GateMode;
  evidence: GateEvidence;
  /** evidence 'test': the false-alarm rate and the shortfall it must catch (defaults resolved). */
  alpha?: number;
  margin?: number;
}

export function normalizeThreshold(g: GateValue): Threshold {
  if (typeof g === 'number') return { value: g, mode: 'hard', evidence: 'point' };
  const { value, mode, evidence } = g;
  if (evidence !== 'test') return { value, mode, evidence };
  return { value, mode, evidence, alpha: g.alpha ?? DEFAULT_GATE_ALPHA, margin: g.margin ?? DEFAULT_GATE_MARGIN };
}

/** A notWorseThan gate in its one full form, its margin resolved (its own, the project's, or the default). */
export interface NotWorseSetting {
  subject: string;
  mode: GateMode;
  alpha: number;
  margin: number;
}

export function normalizeNotWorseThan(setting: NotWorseThanGate, projectMargin: number | undefined): NotWorseSetting {
  if (typeof setting === 'string')
    return { subject: setting, mode: 'hard', alpha: 0.05, margin: projectMargin ?? NOT_WORSE_MARGIN };
  return { ...setting, margin: setting.margin ?? projectMargin ?? NOT_WORSE_MARGIN };
}

/** The threshold gates a project configures, each normalised, in configuration order. */
export function thresholdGatesOf(gates: ProjectGates): Array<{ name: ThresholdGateName; threshold: Threshold }> {
  const out: Array<{ name: ThresholdGateName; threshold: Threshold }> = [];
  for (const [name, value] of Object.entries(gates)) {
    if (value === undefined || CROSS_SUBJECT_GATE_KEYS.includes(name)) continue;
    out.push({ name: name as ThresholdGateName, threshold: normalizeThreshold(value as GateValue) });
  }
  return out;
}

/** Every configured gate of a project with its mode (threshold gates and notWorseThan), for "not evaluated". */
export function configuredGatesOf(gates: ProjectGates): Array<{ name: string; value: number; mode: GateMode }> {
  const out = thresholdGatesOf(gates).map(({ name, threshold }) => ({
    name: name as string,
    value: threshold.value,
    mode: threshold.mode,
  }));
  if (gates.notWorseThan !== undefined) {
    const setting = normalizeNotWorseThan(gates.notWorseThan, gates.margin);
    out.push({ name: 'notWorseThan', value: -setting.margin, mode: setting.mode });
  }
  return out;
}
