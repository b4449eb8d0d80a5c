import { createHash } from 'node:crypto';
import { PyRandom } from '../../src/rng/index.js';
import type { AnyTaskPlugin, FinishReason } from '../../src/tasks/task.js';

/**
 * A compact fingerprint of everything a puzzle plugin does that a run records: its declared metadata and, per
 * level and seed, the instance, prompt, canonical response, instance key, parse of the canonical response,
 * simulated responses at several retentions, and the outcomes of grading a fixed set of texts. Snapshotting it
 * pins the behaviour byte for byte across refactors; a changed field names the level, seed and part that moved.
 */
export interface PuzzleBehaviour {
  metadata: Record<string, unknown>;
  cells: Record<string, Record<string, string>>;
}

const RETENTIONS = [1, 0.9, 0.6] as const;

const digest = (value: unknown): string =>
  createHash('sha256')
    .update(typeof value === 'string' ? value : JSON.stringify(value, mapsAsEntries))
    .digest('hex')
    .slice(0, 16);

function mapsAsEntries(_key: string, value: unknown): unknown {
  return value instanceof Map ? { map: [...value.entries()] } : value;
}

/** Digits and letters shifted by one at a few evenly spaced places: near-miss answers the validator must name. */
function nearMisses(text: string): string[] {
  const out: string[] = [];
  for (let k = 1; k <= 4; k++) {
    const at = Math.floor((text.length * k) / 5);
    const ch = text[at] ?? '';
    let swapped: string | null = null;
    if (/[0-9]/.test(ch)) swapped = String((Number(ch) + 1) % 10);
    else if (/[A-Ya-y]/.test(ch)) swapped = String.fromCharCode(ch.charCodeAt(0) + 1);
    if (swapped !== null) out.push(text.slice(0, at) + swapped + text.slice(at + 1));
  }
  return out;
}

export function puzzleBehaviour(plugin: AnyTaskPlugin, seeds: readonly number[]): PuzzleBehaviour {
  const metadata = {
    id: plugin.id,
    title: plugin.title,
    family: plugin.family,
    project: plugin.project,
    analysis: plugin.analysis,
    simDefault: plugin.simDefault,
    levels: { kind: plugin.levels.kind, values: plugin.levels.values },
    variants: plugin.variants,
    profiles: plugin.profiles,
    fixedInstancePerLevel: plugin.fixedInstancePerLevel === true,
  };
  const cells: PuzzleBehaviour['cells'] = {};
  for (const level of plugin.levels.values) {
    for (const seed of seeds) {
      const instance = plugin.generate(new PyRandom(seed), level, { seed });
      const canonical = plugin.canonicalResponse(instance);
      const blockName = canonical.slice(0, canonical.indexOf('=')).trim();
      const half = canonical.slice(0, Math.floor(canonical.length / 2));
      const cell: Record<string, string> = {
        knob: String(plugin.levels.knob?.(level) ?? null),
        // the per-level rule pins each family's own budgets; the default (fixed) is their maximum, checked in define.test.ts
        maxOutputTokens: String(plugin.maxOutputTokens(level, 'per-level')),
        instance: digest(instance),
        instanceKey: digest(plugin.instanceKey(instance)),
        prompt: digest(plugin.render(instance)),
        canonical: digest(canonical),
        parse: digest(plugin.parse(canonical)),
      };
      const grade = (label: string, text: string, finishReason: FinishReason | undefined) => {
        const outcome = plugin.grade(instance, text, finishReason === undefined ? undefined : { finishReason });
        cell[`grade ${label}`] = `${outcome.kind} k=${outcome.kStar} ${digest(outcome)}`;
      };
      grade('canonical', canonical, 'stop');
      grade('canonical, no context', canonical, undefined);
      grade('canonical cut by the limit', canonical, 'length');
      grade('canonical after reasoning', `Let me think.\n\n${canonical}\nDone.`, 'stop');
      grade('empty', '', 'stop');
      grade('impossibility claim', 'This puzzle is impossible: there is no solution.', 'stop');
      grade('empty list with a claim', `No solution exists.\n${blockName} = []`, 'stop');
      grade('empty object with a claim', `No solution exists.\n${blockName} = {}`, 'stop');
      grade('empty list', `${blockName} = []`, 'stop');
      grade('empty object', `${blockName} = {}`, 'stop');
      grade('half', half, 'stop');
      grade('half cut by the limit', half, 'length');
      grade('last character dropped', canonical.slice(0, -1), 'stop');
      nearMisses(canonical).forEach((text, i) => {
        grade(`near miss ${i + 1}`, text, 'stop');
      });
      for (const retention of RETENTIONS) {
        for (const draw of [0, 1]) {
          const text = plugin.simulate(instance, new PyRandom(1000 * seed + 10 * level + draw), {
            retention,
            recover: 0,
            capacity: 0,
          });
          cell[`simulate p=${retention} #${draw}`] = digest(text);
          grade(`simulate p=${retention} #${draw}`, text, 'stop');
        }
      }
      cells[`L${level} seed ${seed}`] = cell;
    }
  }
  return { metadata, cells };
}
