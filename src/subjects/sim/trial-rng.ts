import { createHash } from 'node:crypto';
import { PyRandom } from '../../rng/index.js';
import type { TrialRequest } from '../subject.js';

/** Independent streams of one simulated trial: the task's simulation and the subject's fault draws. */
export type SimStream = 'simulate' | 'faults';

/**
 * The RNG of one simulated trial, a function of (subject seed, stream, task, instance, trial index) only,
 * so answers never depend on scheduling order or on which other trials ran. The profile's knobs are NOT
 * part of the key: two subjects that differ only in p see the same random numbers (common random
 * numbers), which makes sweeps over p monotone trial by trial.
 */
export function trialRng(subjectSeed: number, stream: SimStream, request: TrialRequest): PyRandom {
  const { instance } = request;
  const key = [
    'ceilingbench-sim',
    stream,
    subjectSeed,
    request.taskId,
    instance.profile,
    instance.level,
    instance.seed,
    request.trialIndex,
  ].join('|');
  // Python equivalent: random.Random(int(hashlib.sha256(key.encode()).hexdigest(), 16)); a sha256 integer
  // seed is ~5× cheaper here than CPython's own str seeding (sha512 in JS), with the same determinism.
  return new PyRandom(BigInt(`0x${createHash('sha256').update(key, 'utf8').digest('hex')}`));
}
