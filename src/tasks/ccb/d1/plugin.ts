import { makeCcbPlugin } from '../plugin.js';
import { stripWhitespace } from '../scan.js';
import { simulateResponse } from '../simulate.js';
import { releaseMaxTokens } from '../types.js';
import { type D1Instance, generateD1 } from './generate.js';
import { readD1 } from './parse.js';
import { renderD1 } from './prompt.js';
import { d1SimDomain } from './simulate.js';

/** D1 Alien Grid: a 3×3 grid under N of seven cell permutations (docs/spec/ccb.md §3). */
export const d1Task = makeCcbPlugin<D1Instance>({
  id: 'd1',
  title: 'CCB D1 Alien Grid (3x3 grid state tracking)',
  maxOutputTokens: releaseMaxTokens,
  // Table 8's AvgTok column: mean response tokens of the five models at N = 5, 10, …, 50
  responseTokens: [183, 345, 497, 636, 772, 912, 1033, 1204, 1320, 1497],
  simRetention: 0.95,
  generate: (rng, depth, seed, profile) => generateD1(rng, depth, seed, profile),
  // release key: the operation chain
  instanceKey: (instance) => instance.data.ops.join(','),
  render: renderD1,
  read: (text, instance) => readD1(text, instance.profile, instance.trace.length),
  readLoose: (text) => readD1(text, 'official'),
  truth: (instance) => ({
    steps: instance.trace.map((s) => stripWhitespace(s).toLowerCase()),
    answer: stripWhitespace(instance.answer).toLowerCase(),
  }),
  simulate: (instance, rng, knobs) =>
    simulateResponse(d1SimDomain(instance), instance.level, instance.answer, rng, knobs),
});
