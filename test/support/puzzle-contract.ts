import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { expect } from 'vitest';
import { PyRandom } from '../../src/rng/index.js';
import { resolveTask } from '../../src/tasks/index.js';
import { type AnyTaskPlugin, stepwiseSim, type TaskInstance } from '../../src/tasks/task.js';
import { puzzleSelfCheck } from './puzzle-self-check.js';

/**
 * The contract every puzzle plugin honours, one assertion per function (the shape of fast-check's
 * ArbitraryAssertions): test/tasks/puzzles/contract.test.ts calls each of them for every plugin in
 * `puzzleTasks`; the family tests call the fuzz and simulation helpers with family-specific inputs.
 */

const instanceAt = (plugin: AnyTaskPlugin, level: number, seed: number): TaskInstance =>
  plugin.generate(new PyRandom(seed), level, { seed });

/** The answer block of a response, `name = value`, split at its first ` = `. */
function answerBlock(canonical: string): { name: string; empty: string } {
  const at = canonical.indexOf(' = ');
  const name = canonical.slice(0, at);
  return { name, empty: canonical[at + 3] === '{' ? `${name} = {}` : `${name} = []` };
}

/** The shared skeleton: one outcome family, project, analysis, sim default, level axis, variant and profile. */
export function assertPuzzleSkeleton(plugin: AnyTaskPlugin): void {
  expect(plugin).toMatchObject({
    family: 'puzzle',
    project: 'puzzles',
    analysis: 'collapse',
    simDefault: stepwiseSim(0.9),
    levels: { kind: 'level', values: [1, 2, 3, 4, 5, 6] },
    variants: ['standard'],
    profiles: ['default'],
  });
  expect(plugin.id).toMatch(/^[a-z][a-z0-9-]*$/);
  expect(plugin.title).not.toBe('');
}

/** Budgets are positive integers that never shrink with the level; undefined levels are rejected everywhere. */
export function assertLevelTable(plugin: AnyTaskPlugin): void {
  const budgets = plugin.levels.values.map((level) => plugin.maxOutputTokens(level));
  for (const budget of budgets) expect(Number.isInteger(budget) && budget > 0).toBe(true);
  expect(budgets).toEqual([...budgets].sort((a, b) => a - b));
  for (const level of [0, 7, 1.5]) {
    expect(() => instanceAt(plugin, level, 1)).toThrow(new RegExp(`${plugin.id}: level ${level} is not defined`));
    expect(() => plugin.maxOutputTokens(level)).toThrow(RangeError);
  }
  const knobs = plugin.levels.values.map((level) => plugin.levels.knob?.(level));
  if (plugin.levels.knob) expect(knobs).toEqual([...knobs].sort((a, b) => (a ?? 0) - (b ?? 0)));
}

/** The registry hands the plugin out under its id with the same declarations, and grades its canonical answer pass. */
export function assertRegistered(plugin: AnyTaskPlugin): void {
  const registered = resolveTask(plugin.id);
  for (const field of ['id', 'family', 'project', 'analysis', 'title', 'levels', 'variants', 'profiles'] as const) {
    expect(registered[field]).toEqual(plugin[field]);
  }
  const instance = instanceAt(registered, 1, 1);
  expect(registered.grade(instance, `<think>hmm</think>\n${registered.canonicalResponse(instance)}`).kind).toBe('pass');
}

/** Every fixture in fixtures/puzzles/<id>/ (instance, prompt, canonical response) is reproduced byte for byte. */
export function assertGoldenFixtures(plugin: AnyTaskPlugin): void {
  const folder = new URL(`../../fixtures/puzzles/${plugin.id}/`, import.meta.url);
  const files = readdirSync(folder).filter((file) => /^L\d+-seed\d+\.json$/.test(file));
  expect(files.length).toBeGreaterThanOrEqual(2);
  for (const file of files) {
    const [, level, seed] = /^L(\d+)-seed(\d+)\.json$/.exec(file)?.map(Number) ?? [];
    const instance = instanceAt(plugin, level, seed);
    const golden = {
      task: plugin.id,
      level,
      seed,
      instance,
      prompt: plugin.render(instance),
      canonical: plugin.canonicalResponse(instance),
    };
    expect(`${JSON.stringify(golden, null, 2)}\n`, file).toBe(readFileSync(new URL(file, folder), 'utf8'));
    expect(plugin.grade(instance, golden.canonical, { finishReason: 'stop' }).kind).toBe('pass');
  }
}

/**
 * On every level and seed: the prompt shows the answer block the canonical response writes; that response parses and passes (also after reasoning, without a grading
 * context, and after an earlier wrong draft); it collapses when cut by the token limit; empty, impossible, empty
 * with a claim, and half answers collapse (puzzleSelfCheck).
 */
export function assertGradingContract(plugin: AnyTaskPlugin, seeds: readonly number[]): void {
  for (const level of plugin.levels.values) {
    for (const seed of seeds) {
      expect(puzzleSelfCheck(plugin, level, seed, { halfAnswerWithoutLimitCollapses: true })).toEqual([]);
      const instance = instanceAt(plugin, level, seed);
      const canonical = plugin.canonicalResponse(instance);
      const { name, empty } = answerBlock(canonical);
      expect(plugin.render(instance).user).toContain(`\n${name} = `);
      const grade = (text: string, finishReason: 'stop' | 'length' = 'stop') =>
        plugin.grade(instance, text, { finishReason }).kind;
      expect(plugin.parse(canonical).ok).toBe(true);
      expect(plugin.grade(instance, canonical).kind).toBe('pass');
      expect(grade(`Let me reason first.\n\n${canonical}\n`)).toBe('pass');
      expect(grade(`Draft:\n${empty}\nOn reflection:\n${canonical}`)).toBe('pass');
      expect(grade(canonical, 'length')).toBe('collapse');
      expect(grade('   \n')).toBe('collapse');
      expect(grade(`There is no solution.\n${empty}`)).toBe('collapse');
      expect(grade(empty)).not.toBe('pass');
    }
  }
}

/** The simulated model is deterministic in its RNG and exact at retention 1 on every level. */
export function assertSimulation(plugin: AnyTaskPlugin, seed: number): void {
  const knobs = { retention: 1, recover: 0, capacity: 0 };
  for (const level of plugin.levels.values) {
    const instance = instanceAt(plugin, level, seed);
    expect(plugin.grade(instance, plugin.simulate(instance, new PyRandom(seed), knobs)).kind).toBe('pass');
    const noisy = { ...knobs, retention: 0.8 };
    const first = plugin.simulate(instance, new PyRandom(seed + 1), noisy);
    expect(plugin.simulate(instance, new PyRandom(seed + 1), noisy)).toBe(first);
    expect(plugin.grade(instance, first).kind).not.toBe('collapse');
  }
}

/**
 * Fuzz: texts built from the answer format's tokens and arbitrary strings grade as pass/fail/collapse with a
 * reason (never throw) and parse without throwing. Without `tokens`, the canonical response's own pieces are used.
 */
export function assertGarbageClassified(plugin: AnyTaskPlugin, instance: TaskInstance, tokens?: string[]): void {
  const pieces = tokens ?? [...new Set(plugin.canonicalResponse(instance).split(/([\s,:=[\]{}"]+)/))];
  const piece = fc.oneof(fc.string(), fc.constantFrom(...pieces));
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 30 }), fc.constantFrom('stop', 'length', null), (parts, reason) => {
      const outcome = plugin.grade(instance, parts.join(''), { finishReason: reason });
      expect(['pass', 'fail', 'collapse']).toContain(outcome.kind);
      if (outcome.kind !== 'pass') expect(outcome.issues.length).toBeGreaterThan(0);
      plugin.parse(parts.join(''));
    }),
    { numRuns: 500 },
  );
}

/** Pass rate of the simulated model over `samples` instances (seeds 0…samples−1) at one level and retention. */
export function simulatedPassRate(
  plugin: AnyTaskPlugin,
  level: number,
  retention: number,
  options: { samples: number; rngSeedBase: number },
): number {
  let pass = 0;
  for (let seed = 0; seed < options.samples; seed++) {
    const instance = instanceAt(plugin, level, seed);
    const text = plugin.simulate(instance, new PyRandom(options.rngSeedBase + seed), {
      retention,
      recover: 0,
      capacity: 0,
    });
    if (plugin.grade(instance, text).kind === 'pass') pass++;
  }
  return pass / options.samples;
}
