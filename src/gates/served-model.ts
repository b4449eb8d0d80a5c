import type { ProjectGates } from '../config/schema.js';
import type { GateResult } from '../schema/gate.js';
import { DEFAULT_SERVED_MODEL_RULE, type ServedModelRule, servedModelMatches } from '../schema/provenance.js';
import type { GatedEntry } from './cross-subject.js';
import { gatesFor } from './keys.js';
import { configuredGatesOf } from './normalize.js';
import { gateLine } from './threshold.js';

/** The rule a project is held to: its `servedModel`, else 'prefix' when it has a hard gate, else none. */
function ruleOf(gates: ProjectGates | undefined): { rule: ServedModelRule; explicit: boolean } | undefined {
  if (!gates) return undefined;
  if (gates.servedModel !== undefined) return { rule: gates.servedModel, explicit: true };
  const gated = configuredGatesOf(gates).some((g) => g.mode === 'hard');
  return gated ? { rule: DEFAULT_SERVED_MODEL_RULE, explicit: false } : undefined;
}

interface Tally {
  requested: string;
  checked: number;
  unreported: number;
  /** Trials served by a model the rule does not accept, by model. */
  other: Map<string, number>;
}

/**
 * The `servedModel` gate of each project that ran and each subject that asked for a model: a hard gate that fails
 * when any answered trial was served by a model the rule does not accept (the count is its estimate, threshold 0).
 * A gate set explicitly also fails when the provider named no served model on any trial (it never passes on data
 * it did not check); the default ('prefix' in a project with a hard gate) then says nothing: the console does.
 */
export function servedModelGates(
  configured: Readonly<Record<string, ProjectGates>>,
  entries: readonly GatedEntry[],
): GateResult[] {
  const tallies = new Map<string, Tally>();
  for (const { project, meta } of entries) {
    const requested = meta?.subject.model;
    if (!meta || requested === undefined) continue;
    const rule = ruleOf(gatesFor(configured, project));
    if (!rule || rule.rule === 'any') continue;
    const key = `${project}\n${meta.subject.spec}`;
    const tally = tallies.get(key) ?? { requested, checked: 0, unreported: 0, other: new Map() };
    tallies.set(key, tally);
    const cells = [...(meta.cells ?? []), ...(meta.record.kind === 'cell' ? [meta.record] : [])];
    for (const trial of cells.flatMap((c) => c.trials)) {
      if (trial.outcome.kind === 'api' || trial.outcome.kind === 'budget') continue;
      if (trial.servedModel === undefined) tally.unreported += 1;
      else if (servedModelMatches(rule.rule, requested, trial.servedModel)) tally.checked += 1;
      else {
        tally.checked += 1;
        tally.other.set(trial.servedModel, (tally.other.get(trial.servedModel) ?? 0) + 1);
      }
    }
  }
  const results: GateResult[] = [];
  for (const [key, t] of [...tallies].sort(([a], [b]) => a.localeCompare(b))) {
    const [project, subject] = key.split('\n');
    const rule = ruleOf(gatesFor(configured, project)) as { rule: ServedModelRule; explicit: boolean };
    const wrong = [...t.other.values()].reduce((a, b) => a + b, 0);
    if (t.checked === 0 && !rule.explicit) continue;
    const passed = t.checked > 0 && wrong === 0;
    const why =
      t.checked === 0
        ? `not evaluated — the provider named no served model on any answered trial of ${subject}`
        : wrong === 0
          ? `${t.checked} answered trial(s) served by ${t.requested} (${rule.rule})`
          : `${subject} asked for ${t.requested}; ${[...t.other].map(([m, n]) => `${n} of ${t.checked} answered trial(s) served by ${m}`).join(', ')} — not a ${rule.rule} match${rule.explicit ? '' : " (the default; set gates['<project>'].servedModel: 'any' to allow it)"}`;
    results.push({
      project,
      task: '*',
      gate: 'servedModel',
      mode: 'hard',
      threshold: 0,
      estimate: t.checked === 0 ? null : wrong,
      ci95: null,
      passed,
      message: gateLine(project, 'servedModel', passed, 'hard', why),
      subject,
    });
  }
  return results;
}
