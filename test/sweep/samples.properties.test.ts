import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AnsweredTrial } from '../../src/assays/sweep/run-trial.js';
import { distinctSamples } from '../../src/assays/sweep/samples.js';
import type { SubjectIdentity } from '../../src/schema/subject.js';
import { generateCell } from '../../src/tasks/instances.js';
import { resolveTask } from '../../src/tasks/registry.js';

// Issue 40, Deliver 5, as properties over any mix of instances and responses: an instance's replicates are one sample
// exactly when they all came back identical; replicates that differ, and distinct instances, are never merged; the
// samples never outnumber the trials, and their tally is what the trials say.

const hanoi = resolveTask('hanoi');
const INSTANCES = [1, 2, 3, 4].map((level) => generateCell(hanoi, level, 1)[0]);
const identities: SubjectIdentity[] = [
  { spec: 'openai:local', kind: 'openai', model: 'local', parameters: { temperature: 0 } },
  { spec: 'module:./mine.ts', kind: 'function', parameters: {} },
];

/** A trial of instance i answered with response r (a pass when r is 0, the outcome a function of the response). */
const answered = ([i, r]: readonly [number, number], index: number): AnsweredTrial =>
  ({
    record: {
      task: 'hanoi',
      level: INSTANCES[i].level,
      seed: INSTANCES[i].seed,
      trialIndex: index,
      profile: 'default',
      variant: 'default',
      outcome: { family: 'puzzle', kind: r === 0 ? 'pass' : 'fail', kStar: -1, tfbc: false, issues: [] },
      finishReason: 'stop',
      usage: null,
      latencyMs: 0,
      cacheHit: false,
      attempts: 1,
    },
    instance: INSTANCES[i],
    prompt: { system: '', user: '' },
    response: { text: `moves = [[${r}]]` },
  }) as AnsweredTrial;

describe('distinct samples (properties)', () => {
  it('one sample per instance whose replicates all agree, every trial of one whose replicates differ', () => {
    const trials = fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 2 })), {
      minLength: 1,
      maxLength: 40,
    });
    fc.assert(
      fc.property(trials, fc.constantFrom(...identities), (pairs, identity) => {
        const samples = distinctSamples(hanoi, pairs.map(answered), identity);
        // the model of the rule
        const groups = new Map<number, number[]>();
        for (const [i, r] of pairs) groups.set(i, [...(groups.get(i) ?? []), r]);
        const tally: Record<string, number> = {};
        let distinct = 0;
        for (const responses of groups.values()) {
          const same = responses.length > 1 && responses.every((r) => r === responses[0]);
          for (const r of same ? responses.slice(0, 1) : responses) {
            distinct++;
            const kind = r === 0 ? 'pass' : 'fail';
            tally[kind] = (tally[kind] ?? 0) + 1;
          }
        }
        if (distinct === pairs.length) expect(samples).toBeUndefined();
        else {
          expect(samples).toEqual({
            reason: identity.parameters.temperature === 0 ? 'temperature 0' : 'identical answers',
            distinct,
            trials: pairs.length,
            outcomes: tally,
          });
          expect(samples?.distinct).toBeLessThan(pairs.length);
          expect(samples?.distinct).toBeGreaterThanOrEqual(groups.size);
        }
      }),
    );
  });
});
