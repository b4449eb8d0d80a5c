import { budgetPerLevel, definePuzzle, jsonLines, listAnswer } from '../common/index.js';
import { generateRiver, RIVER_LEVELS } from './generate.js';
import { renderRiver } from './render.js';
import { simulateRiver } from './simulate.js';
import { validateRiver } from './validate.js';

export const riverTask = definePuzzle({
  id: 'river',
  title: 'River crossing',
  // Tuple-valued levels (n, k): no scalar knob, λ* only on the level index (docs/spec/puzzles.md §1.3).
  levels: RIVER_LEVELS,
  fixedInstancePerLevel: true,
  generate: generateRiver,
  instanceKey: (instance) => `river:n=${instance.data.pairs},k=${instance.data.capacity}`,
  render: renderRiver,
  answerFormat: listAnswer('moves'),
  writeAnswer: jsonLines,
  validate: ({ data }, trips) => validateRiver(data.pairs, data.capacity, trips),
  simulate: simulateRiver,
  simulatedReasoning: 'Checking the boat and both banks after every crossing.',
  // Answers are short (≤ 17 trips); the budget is for the safety search.
  maxOutputTokens: budgetPerLevel([4096, 4096, 8192, 8192, 16384, 16384]),
});
