import type { SccAssayRecord } from '../../schema/report.js';
import { sccStopText } from '../../schema/scc-stop.js';
import { DEFAULT_LADDER_TASK } from '../../tasks/ladder.js';
import { agentPlugin } from '../../tasks/scc-secondary/agent/plugin.js';
import { dualPlugin } from '../../tasks/scc-secondary/dual/plugin.js';
import type { AgentAssayResult, DualTaskResult, MotifAblationResult, SecondaryStop } from './schema.js';

/** The meta records the SCC specs leave for the report (`sccAssays`), with headline numbers for tables/JUnit. */
type Summary = SccAssayRecord['summary'];

const key = (text: string): string => text.replace(/[^a-z0-9]+/gi, '_');

export function motifRecord(result: MotifAblationResult): SccAssayRecord {
  const summary: Summary = { motifs: result.rows.length };
  // a ladder the spend ledger stopped measured no CC: it is in no headline number
  const measured = result.rows.filter((r) => !r.stopped);
  const baseline = measured.find((r) => r.motif === result.baselineMotif);
  summary.baseline_cc = baseline?.cc ?? null;
  const ccs = measured.map((r) => r.cc);
  const [min, max] = [Math.min(...ccs), Math.max(...ccs)];
  const motifsAt = (cc: number) =>
    measured
      .filter((r) => r.cc === cc)
      .map((r) => r.motif)
      .join(' ');
  summary.min_cc = measured.length ? min : null;
  summary.min_cc_motifs = measured.length ? motifsAt(min) : null;
  summary.max_cc = measured.length ? max : null;
  summary.max_cc_motifs = measured.length ? motifsAt(max) : null;
  for (const row of result.rows) summary[`cc_${key(row.motif)}`] = row.stopped ? null : row.cc;
  if (result.stopped) {
    summary.stopped = sccStopText(result.stopped);
    summary.stopped_motif = result.stopped.motif;
    summary.motifs_not_run = result.stopped.notRun.length;
  }
  return { kind: 'sccAssay', assay: 'motif', project: 'scc', task: DEFAULT_LADDER_TASK, summary, result };
}

/** What a secondary assay the spend ledger stopped says: its trials not sent are missing data, a rerun resumes. */
export const secondaryStopText = (stop: SecondaryStop): string =>
  `${stop.notSent} trial${stop.notSent === 1 ? '' : 's'} not sent (${stop.reason}), missing data — ` +
  'rerun with a larger limit to resume from the response cache';

const stopSummary = (summary: Summary, stop: SecondaryStop | undefined): void => {
  if (!stop) return;
  summary.not_sent = stop.notSent;
  summary.stopped = stop.reason;
};

export function dualTaskRecord(result: DualTaskResult): SccAssayRecord {
  const summary: Summary = { trials: result.trials.length };
  for (const c of result.conditions) {
    const name = key(c.condition);
    summary[`count_accuracy_${name}`] = c.countAccuracy;
    summary[`mean_abs_error_${name}`] = c.meanAbsError;
    if (c.taskAccuracy !== null) summary[`task_accuracy_${name}`] = c.taskAccuracy;
    if (c.secondaryAccuracy !== null) summary[`secondary_accuracy_${name}`] = c.secondaryAccuracy;
  }
  stopSummary(summary, result.stopped);
  return { kind: 'sccAssay', assay: 'dual-task', project: 'scc', task: dualPlugin.id, summary, result };
}

export function agentRecord(result: AgentAssayResult): SccAssayRecord {
  const summary: Summary = { trials: result.trials.length, ladder_model: result.ladderModel };
  for (const c of result.conditions) {
    summary[`parse_${c.condition}`] = c.parseRate;
    summary[`strict_json_${c.condition}`] = c.strictJsonRate;
    if (c.countOrCopyRate !== null) summary[`count_or_copy_${c.condition}`] = c.countOrCopyRate;
    if (c.taskSuccessRate !== null) summary[`agent_task_${c.condition}`] = c.taskSuccessRate;
  }
  for (const t of result.thresholds) summary[`last_full_success_${t.condition}`] = t.lastFullSuccess;
  stopSummary(summary, result.stopped);
  return { kind: 'sccAssay', assay: 'agent', project: 'scc', task: agentPlugin.id, summary, result };
}
