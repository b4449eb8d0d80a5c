import type { GateResult } from '../schema/gate.js';
import type { GatedKind } from '../schema/manifest.js';

/** A finished record a gate reads, with who measured it and the gates its test evaluated on it. */
export interface EvidenceRecord {
  project: string;
  kind: GatedKind;
  task: string;
  variant?: string;
  profile?: string;
  /** The levels it covers (a retention fit's depths, a collapse fit's levels). */
  levels?: readonly number[];
  /** 'ok', or why a gate may not read it ('insufficient: …', 'stopped: …'). */
  sufficiency: { ok: true } | { ok: false; why: string };
  subject: string;
  seed: number | null;
  /** The spec file it came from (relative to the ceilingbench root), when known. */
  file?: string;
  /** The threshold gates its test evaluated on it. */
  gates: readonly GateResult[];
}

/** A fit test as collected (declared by describeSweep, testCountingCapacity…), whether it ran or not. */
export interface DeclaredFit {
  project: string;
  file: string;
  name: string;
  task: string;
  fit: GatedKind;
  variant?: string;
  profile?: string;
  /** Who the spec file says answers it, when not the run's subject (a sweep given its own subject). */
  subject?: string;
  /** 'passed' | 'failed' | 'skipped' | 'pending' (Vitest's test state). */
  state: string;
  errors: readonly string[];
}

/** Everything a run, a merge or a stored report holds that a verdict may rest on. */
export interface Evidence {
  records: readonly EvidenceRecord[];
  /** The fit tests collected; unknown (a stored report) when absent. */
  declared?: readonly DeclaredFit[];
  /** The spec files collected, per project; unknown (a stored report) when absent. */
  collected?: ReadonlyArray<{ project: string; file: string }>;
  /** The projects that ran a test module. */
  ran: readonly string[];
  /** How the run was narrowed, as typed: `--project d1, -t ^d2, files registers`. */
  filters?: string;
  /** The run's test name filter (`-t`), when it had one: what skips a collected test besides describe.skip. */
  nameFilter?: string;
}
