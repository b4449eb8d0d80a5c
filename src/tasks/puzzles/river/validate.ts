import type { PuzzleOutcome } from '../../outcome.js';
import { failOutcome, passOutcome, shortJson } from '../common/index.js';
import { assertPairs, isSafe, peopleNames, personBit, popcount, unsafeWitness } from './rules.js';

const namesOf = (mask: number, n: number): string =>
  peopleNames(n)
    .filter((_, bit) => mask & (1 << bit))
    .join(', ') || 'nobody';

/**
 * The validator of docs/spec/puzzles.md §4 with the boat check, first failure wins; kStar = offending trip (T+1 when people remain on the
 * left bank after the last trip). Per trip: a list of distinct known names (checked here, not at parse time,
 * so the index is kept), capacity 1…k, membership on the departure bank, boat safety, then both banks.
 */
export function validateRiver(n: number, k: number, entries: readonly unknown[]): PuzzleOutcome {
  assertPairs(n);
  const everyone = (1 << (2 * n)) - 1;
  let left = everyone;
  let boatLeft = true;
  for (let index = 0; index < entries.length; index++) {
    const step = index + 1;
    const fail = (reason: string) => failOutcome([`trip ${step}: ${reason}`], step);
    const entry = entries[index];
    if (!Array.isArray(entry)) return fail(`not a list of names: ${shortJson(entry)}`);
    let load = 0;
    for (const name of entry as unknown[]) {
      const bit = typeof name === 'string' ? personBit(name, n) : -1;
      if (bit < 0) return fail(`unknown person ${shortJson(name)} (people are A_1…A_${n} and a_1…a_${n})`);
      if (load & (1 << bit)) return fail(`${name} is listed twice`);
      load |= 1 << bit;
    }
    const size = popcount(load);
    if (size < 1) return fail('the boat cannot cross empty');
    if (size > k) return fail(`${size} people exceed the boat capacity ${k}`);
    const bank = boatLeft ? left : everyone - left;
    const away = load & ~bank;
    if (away !== 0) {
      return fail(`${namesOf(away, n)} not on the ${boatLeft ? 'left' : 'right'} bank, where the boat is`);
    }
    if (!isSafe(load, n)) return fail(`unsafe boat: ${unsafeWitness(load, n)}`);
    left = boatLeft ? left & ~load : left | load;
    boatLeft = !boatLeft;
    const leftIssue = unsafeWitness(left, n);
    if (leftIssue) return fail(`unsafe left bank: ${leftIssue}`);
    const rightIssue = unsafeWitness(everyone - left, n);
    if (rightIssue) return fail(`unsafe right bank: ${rightIssue}`);
  }
  if (left === 0) return passOutcome();
  return failOutcome(
    [`goal not reached after ${entries.length} trips: ${namesOf(left, n)} still on the left bank`],
    entries.length + 1,
  );
}
