import type { ProjectGates } from '../config/schema.js';
import { type LeaderboardSubject, notWorseThan } from '../leaderboard/index.js';
import type { GateResult } from '../schema/gate.js';
import type { CeilingbenchMeta } from '../schema/meta.js';
import { gateKeyCovers } from './keys.js';
import { normalizeNotWorseThan } from './normalize.js';
import { gateLine } from './threshold.js';

/** One finished test as the gates read it: its Vitest project and, when it produced one, its record. */
export interface GatedEntry {
  project: string;
  meta?: Pick<CeilingbenchMeta, 'record' | 'cells' | 'subject' | 'seed' | 'gates'>;
}

/** One subject's records among some tests' meta, as the leaderboard reads them. */
function recordsOf(spec: string, entries: readonly GatedEntry[]): LeaderboardSubject {
  const out: LeaderboardSubject = { subject: spec, seed: null, cells: [], fits: [], collapse: [], scc: [] };
  for (const { meta } of entries) {
    if (!meta || meta.subject.spec !== spec) continue;
    out.seed = meta.seed;
    out.cells.push(...(meta.cells ?? []));
    const r = meta.record;
    if (r.kind === 'cell') out.cells.push(r);
    else if (r.kind === 'retention') out.fits.push(r);
    else if (r.kind === 'collapse') out.collapse.push(r);
    else if (r.kind === 'scc') out.scc.push(r);
  }
  return out;
}

/**
 * The notWorseThan gates, decided where every subject's fits are known. For each configured project, every
 * subject other than the baseline that ran in it is compared with the baseline on each of its retention sweeps
 * (src/leaderboard notWorseThan: paired when the trials pair). A baseline that did not run, a project with no
 * other subject, or a comparison with nothing to test ('insufficient') fails: never a pass on data the gate did
 * not check. A project none of whose tests produced a record gets no result here: it is not evaluated.
 */
export function crossSubjectGates(
  configured: Readonly<Record<string, ProjectGates>>,
  entries: readonly GatedEntry[],
  seed: number,
  resamples: number | undefined,
): GateResult[] {
  const results: GateResult[] = [];
  for (const [key, gates] of Object.entries(configured)) {
    if (gates.notWorseThan === undefined) continue;
    const inProject = entries.filter((e) => gateKeyCovers(key, e.project) && e.meta);
    if (inProject.length === 0) continue;
    const { subject: baseline, mode, alpha, margin } = normalizeNotWorseThan(gates.notWorseThan, gates.margin);
    const verdict = (passed: boolean, why: string) => gateLine(key, 'notWorseThan', passed, mode, why);
    const base = { project: key, gate: 'notWorseThan', mode, threshold: -margin, ci95: null, baseline };
    const specs = [...new Set(inProject.map((e) => e.meta?.subject.spec as string))].sort();
    const of = (spec: string) => recordsOf(spec, inProject);
    // a gate that cannot compare fails: it never passes on data it did not check
    const cannotCompare = (why: string) =>
      results.push({ ...base, task: '*', estimate: null, passed: false, upper: null, message: verdict(false, why) });
    if (!specs.includes(baseline)) {
      cannotCompare(
        `baseline subject '${baseline}' did not run in project '${key}' (subjects: ${specs.join(', ')}); add it to the run's subjects`,
      );
      continue;
    }
    const candidates = specs.filter((s) => s !== baseline);
    if (candidates.length === 0) {
      cannotCompare(`no subject other than the baseline '${baseline}' ran in project '${key}': nothing to compare`);
      continue;
    }
    const baselineRecords = of(baseline);
    for (const candidate of candidates) {
      const candidateRecords = of(candidate);
      const sweeps = new Map<string, { project: string; task: string; variant: string }>();
      for (const f of candidateRecords.fits) sweeps.set([f.project, f.task, f.variant].join('\u0000'), f);
      const targets =
        sweeps.size > 0
          ? [...sweeps.values()]
          : [{ project: inProject[0].meta?.record.project ?? key, task: undefined, variant: undefined }];
      for (const target of targets) {
        const r = notWorseThan(candidateRecords, baselineRecords, margin, alpha, {
          project: target.project,
          ...(target.task !== undefined ? { task: target.task, variant: target.variant } : {}),
          seed,
          ...(resamples !== undefined ? { resamples } : {}),
        });
        results.push({
          ...base,
          task: r.task ?? '*',
          estimate: r.difference,
          passed: r.verdict === 'pass',
          message: verdict(
            r.verdict === 'pass',
            r.verdict === 'insufficient' ? `insufficient: ${r.message}` : r.message,
          ),
          subject: candidate,
          upper: r.upper,
          // a test with stated errors: alpha, the non-inferiority margin, and the power one shortfall further
          ...(r.power !== undefined ? { evidence: 'test' as const, alpha, margin, power: r.power } : {}),
        });
      }
    }
  }
  return results;
}
