import {
  CROSS_SUBJECT_GATE_KEYS,
  type GateValue,
  NOT_WORSE_MARGIN,
  type NotWorseThanGate,
  type ProjectGates,
  type ThresholdGateName,
} from '../config/schema.js';
import type { GateMode } from '../schema/gate.js';

/** A threshold gate as configured, in its one full form: a bare number is a hard gate on the point estimate. */
export interface Threshold {
  value: number;
  mode: GateMode;
  evidence: 'point' | 'lower';
}

export const normalizeThreshold = (g: GateValue): Threshold =>
  typeof g === 'number' ? { value: g, mode: 'hard', evidence: 'point' } : g;

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
