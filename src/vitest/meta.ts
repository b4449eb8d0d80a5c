import type { CellResult } from '../schema/cell.js';
import type { Ablation, CollapseFit, RetentionFit } from '../schema/fit.js';
import type { GateResult } from '../schema/gate.js';
import type { SubjectIdentity } from '../subjects/subject.js';

/** A record of the SCC assay as it travels on task.meta (the full result, validated by its own schema). */
export interface SccMetaRecord {
  kind: 'scc';
  project: string;
  task: string;
  cc: number;
  ccLower: number;
  ccUpper: number | null;
  bounded: boolean;
  skipped?: boolean;
  result: unknown;
}

/** A secondary SCC assay (paper 003 Supplementary Notes 7–9): its own result shape, validated by its module. */
export interface SccAssayMetaRecord {
  kind: 'sccAssay';
  assay: 'motif' | 'dual-task' | 'agent';
  project: string;
  task: string;
  /** Headline numbers for tables and JUnit properties. */
  summary: Record<string, number | string | null>;
  result: unknown;
}

export type CeilingbenchRecord =
  | CellResult
  | RetentionFit
  | CollapseFit
  | Ablation
  | SccMetaRecord
  | SccAssayMetaRecord;

/** What one test leaves for the reporter, under the namespaced key `ceilingbench`. */
export interface CeilingbenchMeta {
  record: CeilingbenchRecord;
  /** Cells produced inside one test (the adaptive design records all its depths on the fit test). */
  cells?: CellResult[];
  gates: GateResult[];
  subject: SubjectIdentity;
  seed: number;
}

declare module '@vitest/runner' {
  interface TaskMeta {
    ceilingbench?: CeilingbenchMeta;
  }
}
