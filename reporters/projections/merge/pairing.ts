import type { CellResult } from '../../../src/schema/cell.js';
import type { MergeInput } from './attribution.js';

/** Whether two inputs used the same instances, and the line that says so. */
export interface RunPairing {
  a: string;
  b: string;
  /** null: the runs share no cell (nothing to pair; e.g. SCC records, which compare ladder bounds). */
  paired: boolean | null;
  text: string;
}

const cellName = (c: CellResult) =>
  `${c.project}/${c.task}${c.variant === 'standard' ? '' : ` ${c.variant}`} L=${c.level}`;

/** The cells of an input by sweep and level (one subject of the input: its first, in report order). */
function cellsByKey(input: MergeInput): Map<string, CellResult[]> {
  const out = new Map<string, CellResult[]>();
  for (const cell of input.report.cells) {
    const key = [cell.project, cell.task, cell.variant, cell.profile, cell.budget ?? '', cell.level].join('\u0000');
    out.set(key, [...(out.get(key) ?? []), cell]);
  }
  return out;
}

const instanceSeeds = (cell: CellResult): string =>
  cell.trials
    .map((t) => `${t.seed}:${t.trialIndex}`)
    .sort()
    .join(',');

/** Two inputs: paired when every shared cell holds the same trial count and the same instance seeds. */
export function pairRuns(a: MergeInput, b: MergeInput): RunPairing {
  const head = `runs ${a.name} and ${b.name}`;
  const ca = cellsByKey(a);
  const cb = cellsByKey(b);
  const shared = [...ca.keys()].filter((k) => cb.has(k));
  const seedsDiffer = a.report.seed !== b.report.seed;
  const seeds = `seeds ${a.report.seed ?? 'unknown'} and ${b.report.seed ?? 'unknown'}`;
  if (shared.length === 0) {
    return {
      a: a.name,
      b: b.name,
      paired: null,
      text: `${head} share no cell — nothing to pair${seedsDiffer ? ` (${seeds})` : ''}`,
    };
  }
  const reasons: string[] = [];
  if (seedsDiffer) reasons.push(seeds);
  let counts: string | null = null;
  let instances: string | null = null;
  let noTrials: string | null = null;
  for (const key of shared) {
    // the first subject's cell of each run: a run's subjects answer the same instances
    const x = (ca.get(key) as CellResult[])[0];
    const y = (cb.get(key) as CellResult[])[0];
    if (counts === null && x.n !== y.n) counts = `trial counts differ (${cellName(x)}: ${x.n} and ${y.n})`;
    else if (noTrials === null && (x.trials.length === 0 || y.trials.length === 0)) {
      noTrials = `${cellName(x)} keeps no trial records in ${x.trials.length === 0 ? a.name : b.name}`;
    } else if (instances === null && x.n === y.n && instanceSeeds(x) !== instanceSeeds(y)) {
      instances = `instance seeds differ (${cellName(x)})`;
    }
  }
  for (const r of [counts, instances, noTrials]) if (r !== null) reasons.push(r);
  if (reasons.length === 0) {
    return {
      a: a.name,
      b: b.name,
      paired: true,
      text: `${head} are paired: seed ${a.report.seed ?? 'unknown'}, ${shared.length} shared cells with the same trial counts and instance seeds — paired tests used`,
    };
  }
  return {
    a: a.name,
    b: b.name,
    paired: false,
    text: `${head} are not paired: ${reasons.join('; ')} — unpaired tests used`,
  };
}
