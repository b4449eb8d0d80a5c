import { PyRandom } from '../rng';
import type { AnyTaskPlugin, GenerateOptions, TaskInstance } from './task';

export interface CellInstanceOptions extends GenerateOptions {
  /** Added to every seed; 0 reproduces the released CCB main sets, 200000 their ablation sets. */
  seedOffset?: number;
}

/**
 * The instances of one (task, level) cell, exactly as the CCB release builds them: attempt a = 0, 1, …
 * uses seed `level·10000 + a + seedOffset`, a fresh CPython RNG per attempt, and keeps an instance
 * unless its key was already kept at this level, until `count` are kept.
 */
export function generateCell<I extends TaskInstance>(
  task: AnyTaskPlugin,
  level: number,
  count: number,
  options: CellInstanceOptions = {},
): I[] {
  const { seedOffset = 0, ...generateOptions } = options;
  const kept: I[] = [];
  const seen = new Set<string>();
  const maxAttempts = Math.max(1000, count * 100);
  for (let attempt = 0; kept.length < count; attempt++) {
    if (attempt >= maxAttempts) {
      throw new Error(
        `${task.id} level ${level}: only ${kept.length} distinct instances in ${maxAttempts} attempts; ` +
          `lower the trial count or raise the level`,
      );
    }
    const seed = level * 10000 + attempt + seedOffset;
    const instance = task.generate(new PyRandom(seed), level, { ...generateOptions, seed }) as I;
    const key = task.instanceKey(instance);
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push(instance);
  }
  return kept;
}
