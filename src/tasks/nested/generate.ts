import { PyRandom } from '../../rng/index.js';

/**
 * The heterogeneous nested key-path prompt of `run_nested_key_path.py` (paper Supplementary Note 5;
 * docs/spec/scc.md §10). A pure function of the match count x: the records come from `Random(<string seed>)`.
 */
export const NESTED_POOL = [
  'BX',
  'CU',
  'DV',
  'FW',
  'GY',
  'HZ',
  'JQ',
  'KR',
  'LM',
  'NP',
  'QS',
  'TV',
  'WX',
  'YZ',
  'PC',
  'RF',
  'SD',
  'MN',
  'JK',
  'UV',
] as const;

export const NESTED_INSTRUCTION =
  'Each record has a KEY token and a nested PATH field. A record counts as a match when the KEY token is ' +
  'identical to the deepest token inside PATH. Count how many matching records are in the following sequence. ' +
  'Return only one integer.';

export const nestedSeed = (matches: number): string => `heterogeneous-nested-key-path-match:${matches}`;

/** max(2, ceil(0.5·x) + 2); the max never binds for x ≥ 0. */
export const nestedNegativeCount = (matches: number): number => Math.max(2, Math.ceil(0.5 * matches) + 2);

export interface NestedRecord {
  key: string;
  leaf: string;
  match: boolean;
  text: string;
}

const without = (excluded: readonly string[]): string[] => NESTED_POOL.filter((token) => !excluded.includes(token));

function pathText(style: number, left: string, leaf: string, right: string): string {
  if (style === 0) return `[${left}<{${leaf}}>${right}]`;
  if (style === 1) return `(${left}[<${leaf}>]${right})`;
  return `<${left}({${leaf}})${right}>`;
}

export function nestedRecords(matches: number): NestedRecord[] {
  if (!Number.isInteger(matches) || matches < 0)
    throw new RangeError(`nested match count must be a non-negative integer, got ${matches}`);
  const labels = [...Array<boolean>(matches).fill(true), ...Array<boolean>(nestedNegativeCount(matches)).fill(false)];
  const rng = new PyRandom(nestedSeed(matches));
  rng.shuffle(labels);
  return labels.map((positive, i) => {
    const key = rng.choice(NESTED_POOL);
    const leaf = positive ? key : rng.choice(without([key]));
    const side = rng.sample(without([key, leaf]), 2);
    const [left, right] = rng.sample(without([key, leaf, side[0], side[1]]), 2);
    const index = String(i).padStart(3, '0');
    const text = `R${index}{KEY=${key}; PATH=${pathText(i % 3, left, leaf, right)}; SIDE=(${side[0]}|${side[1]})}`;
    return { key, leaf, match: key === leaf, text };
  });
}

/** The user message (sent under the counting system prompt). */
export function nestedUserPrompt(matches: number): string {
  return `${NESTED_INSTRUCTION}\n\n${nestedRecords(matches)
    .map((record) => record.text)
    .join(' ; ')}`;
}
