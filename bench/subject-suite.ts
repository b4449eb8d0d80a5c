import type { Bench } from 'tinybench';
import { parseSubjectSpec, SubjectSpecError } from '../src/subjects/spec.js';

/**
 * Subject spec parsing: a valid spec, and the adversarial one of test/subjects/spec.test.ts (a 120 KB query of
 * 20,000 repeated pairs, rejected). The parser splits strings only, so the second is linear in its length; the
 * unit test checks that it is rejected, this measures how fast (it used to be a wall-clock assertion there).
 */
export function addSubjectBenches(bench: Bench): void {
  bench.add('parseSubjectSpec · sim:retention?p=0.9&seed=3', () => {
    parseSubjectSpec('sim:retention?p=0.9&seed=3');
  });
  const adversarial = `sim:retention?${'p=0.5&'.repeat(20_000)}`;
  bench.add(`parseSubjectSpec · adversarial ${Math.round(adversarial.length / 1000)} KB query (rejected)`, () => {
    try {
      parseSubjectSpec(adversarial);
    } catch (error) {
      if (!(error instanceof SubjectSpecError)) throw error;
      return;
    }
    throw new Error('the adversarial spec was accepted');
  });
}
