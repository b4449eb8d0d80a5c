import { PyRandom } from '../rng/index.js';
import type { AnyTaskPlugin, GenerateOptions, TaskInstance } from './task.js';

export interface CellInstanceOptions extends GenerateOptions {
  /** Added to every seed; 0 reproduces the released CCB main sets, 200000 their ablation sets. */
  seedOffset?: number;
}

/**
 * The instances of one (task, level) cell, exactly as the CCB release builds them: attempt a = 0, 1, …
 * uses seed `level·10000 + a + seedOffset`, a fresh CPython RNG per attempt, and keeps an instance
 * unless its key was already kept at this level, until `count` are kept. A family whose level fixes
 * the instance (`fixedInstancePerLevel`) gets `count` replicates of its one instance instead; a level
 * with fewer than `count` distinct instances gets them replicated round-robin.
 */
export function generateCell<I extends TaskInstance>(
  task: AnyTaskPlugin,
  level: number,
  count: number,
  options: CellInstanceOptions = {},
): I[] {
  const { seedOffset = 0, ...generateOptions } = options;
  if (task.fixedInstancePerLevel) {
    const seed = level * 10000 + seedOffset;
    const instance = task.generate(new PyRandom(seed), level, { ...generateOptions, seed }) as I;
    return Array.from({ length: count }, () => instance);
  }
  const kept: I[] = [];
  const seen = new Set<string>();
  // A small instance space (e.g. one-move Rubik scrambles: 18) is recognised by a long run of
  // duplicates; its distinct instances are then replicated round-robin to fill the cell.
  const staleLimit = Math.max(200, count * 5);
  let stale = 0;
  for (let attempt = 0; kept.length < count && stale < staleLimit; attempt++) {
    const seed = level * 10000 + attempt + seedOffset;
    const instance = task.generate(new PyRandom(seed), level, { ...generateOptions, seed }) as I;
    const key = task.instanceKey(instance);
    if (seen.has(key)) {
      stale++;
      continue;
    }
    stale = 0;
    seen.add(key);
    kept.push(instance);
  }
  if (kept.length === 0) throw new Error(`${task.id} level ${level}: the generator produced no instance`);
  const distinct = kept.length;
  for (let i = distinct; i < count; i++) kept.push(kept[i % distinct]);
  return kept;
}
