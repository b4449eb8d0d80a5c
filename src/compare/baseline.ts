import type { Baseline } from '../schema/baseline.js';
import { buildProvenance, type Provenance } from '../schema/provenance.js';
import type { Report } from '../schema/report.js';

/** A report's provenance: its own, or for a report written before it was kept, what its records say. */
export function provenanceOfReport(report: Report): Provenance {
  return (
    report.provenance ??
    buildProvenance({
      subjects: report.subjects,
      seed: report.seed,
      packageVersion: report.tool.version,
      cells: report.cells,
      fits: report.fits,
    })
  );
}

/** A baseline's provenance: its own, or for a baseline saved before it was kept, what its fields say. */
export function provenanceOfBaseline(baseline: Baseline): Provenance {
  return (
    baseline.provenance ??
    buildProvenance({ subjects: baseline.subjects, seed: baseline.seed, packageVersion: null, fits: [] })
  );
}

/**
 * The compact per-release record of a run (see src/schema/baseline.ts). An insufficient record carries its status
 * (and a cell its missing count); a complete one is written as before the fields existed.
 */
export function baselineFromReport(report: Report, name: string): Baseline {
  return {
    schemaVersion: 1,
    name,
    runStartedAt: report.timing.startedAt,
    gitSha: report.git.sha,
    seed: report.seed,
    subjects: report.subjects,
    provenance: provenanceOfReport(report),
    fits: report.fits.map((f) => ({
      project: f.project,
      task: f.task,
      variant: f.variant,
      missing: f.missing,
      pd: f.pd,
      ci95: f.ci95,
      counts: f.counts,
      tfbc: f.tfbc,
      correct: f.correct,
      tfbcRate: f.tfbcRate,
      ...(f.status === 'insufficient' ? { status: f.status } : {}),
      ...(f.status === 'insufficient' && f.insufficientReason ? { insufficientReason: f.insufficientReason } : {}),
    })),
    cells: report.cells.map((c) => ({
      project: c.project,
      task: c.task,
      variant: c.variant,
      level: c.level,
      successes: c.successes,
      answered: c.n - c.missing,
      ...(c.status === 'insufficient' ? { status: c.status, missing: c.missing } : {}),
    })),
    collapse: report.collapse.map((c) => ({
      project: c.project,
      task: c.task,
      levelIndex: c.collapseThreshold.levelIndex,
      ci95: c.collapseThreshold.ci95,
      ...(c.status === 'insufficient' ? { status: c.status } : {}),
    })),
    scc: report.scc.map((s) => ({
      project: s.project,
      task: s.task,
      cc: s.cc,
      ccLower: s.ccLower,
      ccUpper: s.ccUpper,
      bounded: s.bounded,
      ...(s.stopped ? { stopped: s.stopped } : {}),
    })),
  };
}
