import { makeCcbPlugin } from '../plugin.js';
import { simulateResponse } from '../simulate.js';
import { releaseMaxTokens } from '../types.js';
import { type D2Instance, generateD2 } from './generate.js';
import { readD2, readRegisters } from './parse.js';
import { renderD2 } from './prompt.js';
import { d2SimDomain } from './simulate.js';

/** D2 Symbolic Pointer Tracking: registers A..G under N shifts, a swap and mod-10 assignments (docs/spec/ccb.md §4). */
export const d2Task = makeCcbPlugin<D2Instance>({
  id: 'd2',
  title: 'CCB D2 Symbolic Pointer Tracking (registers A-G, mod 10)',
  maxOutputTokens: releaseMaxTokens,
  // Table 9's AvgTok column: mean response tokens of the five models at N = 5, 10, …, 50
  responseTokens: [205, 380, 555, 725, 895, 1053, 1235, 1410, 1580, 1755],
  simRetention: 0.95,
  generate: (rng, depth, seed, profile) => generateD2(rng, depth, seed, profile),
  // release key: the operation chain
  instanceKey: (instance) => instance.data.ops.join(','),
  render: renderD2,
  read: (text, instance) => readD2(text, instance.profile, instance.trace.length),
  readLoose: (text) => readD2(text, 'official'),
  truth: (instance) => ({
    steps: instance.trace.map((s) => readRegisters(s, 'official').norm),
    answer: readRegisters(instance.answer, 'official').norm,
  }),
  simulate: (instance, rng, knobs) =>
    simulateResponse(d2SimDomain(instance), instance.level, instance.answer, rng, knobs),
});
