import { PyRandom } from '../../../rng/index.js';
import { estimatePromptTokens, markerSequence } from '../common.js';

/**
 * The length-matched controls of `run_count_scatter_controls.py` (count_scatter_control_common.py): dead
 * Python code grown to a target token estimate, and the number of markers whose sequence reaches it.
 */
const CODE_NAMES = ['alpha', 'beta', 'gamma', 'delta', 'theta', 'omega', 'sigma', 'kappa'] as const;

/** `repeated_to_target_tokens`: doubling, then the smallest unit count whose text reaches the target. */
function smallestReaching(builder: (units: number) => string, targetTokens: number): number {
  const target = Math.max(1, Math.trunc(targetTokens));
  let units = 1;
  while (estimatePromptTokens(builder(units)) < target) units *= 2;
  let low = 1;
  let high = units;
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    if (estimatePromptTokens(builder(mid)) < target) low = mid + 1;
    else high = mid;
  }
  return low;
}

function codeLines(lineCount: number, seed: string): string {
  const rng = new PyRandom(`${seed}:code:${lineCount}`);
  const lines = ['def unused_transform(values):', '    total = 0'];
  for (let index = 0; index < lineCount; index++) {
    const name = rng.choice(CODE_NAMES);
    const value = rng.randint(2, 97);
    lines.push(`    ${name}_${index} = (${value} * ${index + 3}) % ${value + 11}`);
    lines.push(`    total += ${name}_${index}`);
  }
  lines.push('    return total');
  return lines.join('\n');
}

/** `make_irrelevant_code(target_tokens, seed)`. */
export function makeIrrelevantCode(targetTokens: number, seed: string): string {
  return codeLines(
    smallestReaching((n) => codeLines(n, seed), targetTokens),
    seed,
  );
}

/** `count_for_target_tokens`: the fewest `a` markers whose sequence reaches the target token estimate. */
export function countForTargetTokens(targetTokens: number): number {
  const target = Math.max(1, Math.trunc(targetTokens));
  let low = 1;
  let high = 2;
  while (estimatePromptTokens(markerSequence(high)) < target) high *= 2;
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    if (estimatePromptTokens(markerSequence(mid)) < target) low = mid + 1;
    else high = mid;
  }
  return low;
}
