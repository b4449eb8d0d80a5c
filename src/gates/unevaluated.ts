import type { ProjectGates } from '../config/schema.js';
import type { GateResult } from '../schema/gate.js';
import { gateKeyCovers, gatesFor } from './keys.js';
import { configuredGatesOf } from './normalize.js';
import { gateLine } from './threshold.js';

/** What a run could have measured and what it did: the population "not evaluated" is decided on. */
export interface GateScope {
  /** Every project of the configuration a gate key may name, whether this run selected it or not. */
  declared: readonly string[];
  /** The projects this run ran a test module of. */
  ran: readonly string[];
  /** How this run narrowed what ran (`--project d1`, `-t canonical`, a shard), for the message. */
  filters?: string;
}

/**
 * A configured hard gate with no result fails, naming why: its project did not run (filtered out, or in no
 * shard that was merged), or it ran and no record the gate reads finished (a name filter skipped the fit, a gate
 * of the wrong kind), or what was evaluated used another threshold or mode (blobs merged under other gates than
 * the shards ran with). A gate never passes on data it did not check; an advisory gate is never a failure.
 */
export function unevaluatedGates(
  configured: Readonly<Record<string, ProjectGates>>,
  scope: GateScope,
  evaluated: readonly GateResult[],
): GateResult[] {
  const projects = [...new Set([...scope.declared, ...scope.ran])].sort();
  const ran = new Set(scope.ran);
  const results: GateResult[] = [];
  for (const [key, projectGates] of Object.entries(configured)) {
    const covered = projects.filter((p) => gateKeyCovers(key, p));
    for (const { name, value, mode } of configuredGatesOf(projectGates)) {
      if (mode !== 'hard') continue;
      // a gate across subjects has one result for its key; a threshold gate one per project the key covers
      const targets = name === 'notWorseThan' ? [key] : covered.length > 0 ? covered : [key];
      for (const project of targets) {
        // a `d2@<label>` key's value wins over the `d2` key's for that subject (gatesFor): judged on its own key
        if (name !== 'notWorseThan' && overridden(configured, project, name, value, mode)) continue;
        const sameName = evaluated.filter((g) => g.project === project && g.gate === name);
        if (sameName.some((g) => g.threshold === value && g.mode === mode)) continue;
        const didRun = name === 'notWorseThan' ? covered.some((p) => ran.has(p)) : ran.has(project);
        // a merge judges blobs whose tests evaluated the gates of their own run: a result at another threshold or
        // mode is not this configuration's gate
        const other = sameName[0];
        const why = other
          ? `not evaluated at this threshold — the tests that wrote these results evaluated it at ${other.threshold} (${other.mode}); rerun them with this configuration's gates, or merge with the gates they ran with`
          : didRun
            ? `not evaluated — no finished record in project '${project}' that this gate applies to (check the gate name and that the fit test ran${scope.filters ? `; this run's filters: ${scope.filters}` : ''})`
            : `not evaluated — project '${project}' did not run${scope.filters ? ` (this run's filters: ${scope.filters})` : ''}; run it, or make the gate advisory ({ value: ${value}, mode: 'advisory' })`;
        results.push({
          project,
          task: '*',
          gate: name,
          mode,
          threshold: value,
          estimate: null,
          ci95: null,
          passed: false,
          message: gateLine(key, name, false, mode, why),
        });
      }
    }
  }
  return results;
}

/** Whether another key's gate of this name decides for the project (a more specific key, gate by gate). */
function overridden(
  configured: Readonly<Record<string, ProjectGates>>,
  project: string,
  name: string,
  value: number,
  mode: string,
): boolean {
  const effective = configuredGatesOf(gatesFor(configured, project) ?? {}).find((g) => g.name === name);
  return effective !== undefined && (effective.value !== value || effective.mode !== mode);
}
