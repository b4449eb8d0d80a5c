import { budgetPerLevel, definePuzzle, jsonLines, listAnswer } from '../common/index.js';
import { CHECKERS_PER_COLOUR, generateCheckers } from './generate.js';
import { renderCheckers } from './render.js';
import { simulateCheckers } from './simulate.js';
import { validateCheckers } from './validate.js';

export const checkersTask = definePuzzle({
  id: 'checkers',
  title: 'Checker jumping',
  levels: CHECKERS_PER_COLOUR,
  knob: (checkersPerColour) => checkersPerColour,
  fixedInstancePerLevel: true,
  generate: generateCheckers,
  instanceKey: (instance) => `checkers:n=${instance.data.checkersPerColour}`,
  render: renderCheckers,
  answerFormat: listAnswer('moves'),
  writeAnswer: jsonLines,
  validate: (instance, moves) => validateCheckers(instance.data.checkersPerColour, moves),
  simulate: simulateCheckers,
  simulatedReasoning: 'Tracking the board after every move.',
  // The L6 answer is ≈ 48 moves × 8 tokens, so the budget is for reasoning.
  maxOutputTokens: budgetPerLevel([4096, 4096, 8192, 8192, 16384, 16384]),
});
