import fc from 'fast-check';
import { expect } from 'vitest';
import { PyRandom } from '../../src/rng/index.js';
import { generateCell } from '../../src/tasks/instances.js';
import { apiOutcome, isMissing, isSuccess, OUTCOME_RECORDS, trialOutcomeSchema } from '../../src/tasks/outcome.js';
import { ANALYSES, type AnyTaskPlugin } from '../../src/tasks/task.js';

/**
 * The task contract as one assertion helper (after fast-check's ArbitraryAssertions): every registered plugin,
 * shipped or not, passes the same checks, so a new family is held to the contract by registering it.
 * `plugin` should be the registered object (resolveTask), which reads whole responses.
 */
export function assertTaskContract(plugin: AnyTaskPlugin, options: { levels?: readonly number[]; runs?: number } = {}) {
  assertDeclaration(plugin);
  const levels = options.levels ?? plugin.levels.values.slice(0, 2);
  fc.assert(
    fc.property(fc.constantFrom(...levels), fc.integer({ min: 0, max: 2 ** 31 - 1 }), (level, seedOffset) => {
      assertInstanceContract(plugin, level, seedOffset);
    }),
    { numRuns: options.runs ?? 6 },
  );
}

/** What the harness branches on is declared, and in range. */
export function assertDeclaration(plugin: AnyTaskPlugin): void {
  const where = `task '${plugin.id}'`;
  expect(plugin.project, `${where}: project`).toMatch(/^[a-z][a-z0-9-]*$/);
  expect(ANALYSES, `${where}: analysis`).toContain(plugin.analysis);
  expect(Object.keys(OUTCOME_RECORDS), `${where}: family`).toContain(plugin.family);
  expect(plugin.simDefault.retention, `${where}: simDefault.retention`).toBeGreaterThan(0);
  expect(plugin.simDefault.retention, `${where}: simDefault.retention`).toBeLessThanOrEqual(1);
  expect(plugin.simDefault.capacity, `${where}: simDefault.capacity`).toBeGreaterThan(0);
  expect(plugin.variants.length * plugin.profiles.length, `${where}: variants, profiles`).toBeGreaterThan(0);
  const values = plugin.levels.values;
  expect(
    [...values].sort((a, b) => a - b),
    `${where}: levels ascending`,
  ).toEqual([...values]);
  for (const level of values) {
    const budget = plugin.maxOutputTokens(level);
    expect(Number.isSafeInteger(budget) && budget > 0, `${where}: maxOutputTokens(${level}) = ${budget}`).toBe(true);
  }
  const api = apiOutcome(plugin.family, 'connection reset', 1);
  expect(trialOutcomeSchema.parse(api).kind).toBe('api');
  expect(isMissing(api) && !isSuccess(api), `${where}: api is missing data`).toBe(true);
}

/** One instance: deterministic, rendered, canonical answer succeeds, empty and cut-off answers do not. */
export function assertInstanceContract(plugin: AnyTaskPlugin, level: number, seedOffset: number): void {
  const where = `task '${plugin.id}' level ${level} seedOffset ${seedOffset}`;
  const [instance] = generateCell(plugin, level, 1, { seedOffset });
  const [again] = generateCell(plugin, level, 1, { seedOffset });
  expect(again, `${where}: same seed, same instance`).toEqual(instance);
  if (!instance) throw new Error(`${where}: no instance`);
  expect([instance.task, instance.level], where).toEqual([plugin.id, level]);
  expect(plugin.instanceKey(instance), `${where}: instanceKey`).toBe(plugin.instanceKey(again ?? instance));

  for (const variant of plugin.variants) {
    const prompt = plugin.render(instance, variant);
    expect(prompt.user.length, `${where} ${variant}: user prompt`).toBeGreaterThan(0);
    expect(plugin.render(instance, variant), `${where} ${variant}: render is deterministic`).toEqual(prompt);
  }

  const kinds: readonly string[] = OUTCOME_RECORDS[plugin.family].kinds;
  const grade = (text: string, finishReason: 'stop' | 'length' = 'stop') => {
    const outcome = trialOutcomeSchema.parse(plugin.grade(instance, text, { finishReason }));
    expect(outcome.family, `${where}: outcome record`).toBe(plugin.family);
    expect(kinds, `${where}: outcome kind`).toContain(outcome.kind);
    expect(outcome.kind, `${where}: a response is never an api fault`).not.toBe('api');
    return outcome;
  };

  const canonical = plugin.canonicalResponse(instance);
  expect(plugin.parse(canonical).ok, `${where}: canonical response parses`).toBe(true);
  expect(isSuccess(grade(canonical)), `${where}: canonical response succeeds`).toBe(true);

  const perfect = plugin.simulate(instance, new PyRandom(seedOffset), { retention: 1, recover: 0, capacity: Infinity });
  expect(isSuccess(grade(perfect)), `${where}: a perfect simulated model succeeds`).toBe(true);

  expect(isSuccess(grade('')), `${where}: an empty response never succeeds`).toBe(false);
  expect(isSuccess(grade('I am not sure.', 'length')), `${where}: a cut-off non-answer never succeeds`).toBe(false);
}
