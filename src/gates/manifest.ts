import type { ProjectGates } from '../config/schema.js';
import type { GatedKind, Requirement } from '../schema/manifest.js';
import { gateKeyCovers, gatesFor } from './keys.js';
import { normalizeNotWorseThan, thresholdGatesOf } from './normalize.js';
import { THRESHOLD_GATES } from './threshold.js';

/** One record a declared project's spec files produce, known before they run (a standard grid's). */
export interface GridRecord {
  task: string;
  fit: GatedKind;
  variant?: string;
  profile?: string;
  /** The levels the record must cover (absent: not checked, e.g. the adaptive design picks its own depths). */
  levels?: number[];
}

/** A benchmark project as the configuration declares it, before any filter. */
export interface DeclaredProject {
  /** The project records and gates name: `d2`, or `d2@<label>` with several subjects. */
  name: string;
  /** The subject spec that answers it. */
  subject: string;
  /** A standard project: the records its grid produces. */
  grid?: readonly GridRecord[];
  /** The user's spec folder: its spec files found by the include pattern (relative to the ceilingbench root). */
  files?: readonly string[];
}

/** The kind of record a gate reads; notWorseThan compares retention fits. */
const kindOf = (gate: string): GatedKind =>
  gate === 'notWorseThan' ? 'retention' : THRESHOLD_GATES[gate as keyof typeof THRESHOLD_GATES].kind;

/**
 * The evidence manifest: every record each configured hard gate needs — project × subject × task × variant ×
 * levels × fit — derived from the configuration and the declared projects only, never from what a filter let run.
 * A standard project needs each record of its grid the gate reads; the user's folder each fit of each spec file
 * (a file's fits are known once it is collected; a file that was not collected is missing as a whole). A gate whose
 * project declares nothing it reads needs a record that cannot exist: it is never evaluated (it fails).
 * Advisory gates need nothing: they never decide the exit code.
 */
export function deriveManifest(
  configured: Readonly<Record<string, ProjectGates>>,
  projects: readonly DeclaredProject[],
  seed: number,
): Requirement[] {
  const out: Requirement[] = [];
  for (const [key, gates] of Object.entries(configured)) {
    const hard: Array<Pick<Requirement, 'gate' | 'mode' | 'threshold' | 'evidence'>> = thresholdGatesOf(gates)
      .filter((g) => g.threshold.mode === 'hard')
      .map(({ name, threshold }) => ({
        gate: name,
        mode: threshold.mode,
        threshold: threshold.value,
        ...(name === 'minRetention' ? { evidence: threshold.evidence } : {}),
      }));
    if (gates.notWorseThan !== undefined) {
      const setting = normalizeNotWorseThan(gates.notWorseThan, gates.margin);
      if (setting.mode === 'hard') hard.push({ gate: 'notWorseThan', mode: 'hard', threshold: -setting.margin });
    }
    const covered = projects.filter((p) => gateKeyCovers(key, p.name));
    for (const gate of hard) {
      const fit = kindOf(gate.gate);
      for (const project of covered) {
        // a `d2@<label>` key's gate wins over the `d2` key's for that subject: needed under its own key only
        if (gate.gate !== 'notWorseThan' && key !== project.name && overridden(configured, project.name, gate))
          continue;
        const base = { key, ...gate, project: project.name, subject: project.subject, seed, fit };
        if (project.grid) {
          const records = project.grid.filter((r) => r.fit === fit);
          if (records.length === 0) out.push(base);
          for (const r of records) out.push({ ...base, ...r, fit });
        } else if (project.files && project.files.length > 0) {
          for (const file of project.files) out.push({ ...base, file });
        } else out.push(base);
      }
      if (covered.length === 0) out.push({ key, ...gate, project: key, subject: '*', seed, fit });
    }
  }
  return out;
}

/** Whether a more specific key sets this gate otherwise for the project (gatesFor: the `d2@<label>` key wins). */
function overridden(
  configured: Readonly<Record<string, ProjectGates>>,
  project: string,
  gate: Pick<Requirement, 'gate' | 'mode' | 'threshold'>,
): boolean {
  const effective = thresholdGatesOf(gatesFor(configured, project) ?? {}).find((g) => g.name === gate.gate);
  return (
    effective !== undefined && (effective.threshold.value !== gate.threshold || effective.threshold.mode !== gate.mode)
  );
}
