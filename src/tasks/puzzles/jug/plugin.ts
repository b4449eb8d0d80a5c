import { budgetPerLevel, definePuzzle, listAnswer } from '../common/index.js';
import { generateJug, JUG_LEVELS } from './generate.js';
import { renderJug, writeSteps } from './render.js';
import { simulateJug } from './simulate.js';
import { validateJug } from './validate.js';

export const jugTask = definePuzzle({
  id: 'jug',
  title: 'Water jug',
  // Tuple-valued levels (cA, cB, g): no scalar knob, λ* only on the level index (docs/spec/puzzles.md §1.3).
  levels: JUG_LEVELS,
  fixedInstancePerLevel: true,
  generate: generateJug,
  instanceKey: (i) => `jug:${i.data.capacityA},${i.data.capacityB},${i.data.goal}`,
  render: renderJug,
  answerFormat: listAnswer('moves'),
  writeAnswer: writeSteps,
  validate: ({ data }, moves) => validateJug(data.capacityA, data.capacityB, data.goal, moves),
  simulate: simulateJug,
  simulatedReasoning: 'Tracking both jugs after every step.',
  // Answers are ≤ 24 steps; the budget is for arithmetic state tracking.
  maxOutputTokens: budgetPerLevel([4096, 4096, 8192, 8192, 16384, 16384]),
});
