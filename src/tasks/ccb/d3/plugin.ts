import { makeCcbPlugin } from '../plugin.js';
import { simulateResponse } from '../simulate.js';
import { type D3Instance, generateD3 } from './generate.js';
import { readD3 } from './parse.js';
import { eventList, renderD3 } from './prompt.js';
import { d3SimDomain } from './simulate.js';

const truthNorm = (state: string): string => readD3(`Step 1: ${state}`, 'state').steps[0]?.norm ?? '';

/** D3 Social Logic: alliances and rivalries among ten agents under transitive closure (docs/spec/ccb.md §5). */
export const d3Task = makeCcbPlugin<D3Instance>({
  id: 'd3',
  title: 'CCB D3 Social Logic (transitive alliance/rivalry closure)',
  // the release's max_tokens for D3: 12000, 20000 when N ≥ 40
  maxOutputTokens: (depth) => (depth >= 40 ? 20000 : 12000),
  // Table 10's AvgTok column: mean response tokens of the five models at N = 5, 10, …, 50
  responseTokens: [130, 390, 735, 1265, 1730, 2170, 2780, 3195, 3562, 4317],
  simRetention: 0.8,
  generate: (rng, depth, seed, profile, options) => generateD3(rng, depth, seed, profile, options.query === true),
  // release key: the user-prompt text (events with relation words); the paper query is not part of it
  instanceKey: (instance) => eventList(instance),
  render: renderD3,
  read: (text, instance) => readD3(text, instance.data.answerMode, instance.trace.length),
  readLoose: (text) => readD3(text, 'state'),
  truth: (instance) => ({
    steps: instance.trace.map(truthNorm),
    answer: instance.data.answerMode === 'query' ? instance.answer : truthNorm(instance.answer),
  }),
  simulate: (instance, rng, knobs) =>
    simulateResponse(d3SimDomain(instance), instance.level, instance.answer, rng, knobs),
});
