import { answerSizedBudget, definePuzzle, listAnswer, readAnswer } from '../common/index.js';
import { generateRubik, RUBIK_SCRAMBLE_LENGTHS } from './generate.js';
import { renderRubik, writeMoves } from './render.js';
import { simulateRubik } from './simulate.js';
import { readMoves, validateRubik } from './validate.js';

export const rubikTask = definePuzzle({
  id: 'rubik',
  title: "Rubik's Cube 3×3 (canonical scramble, optimal distance = level length)",
  levels: RUBIK_SCRAMBLE_LENGTHS,
  knob: (scrambleLength) => scrambleLength,
  generate: generateRubik,
  instanceKey: (instance) => instance.data.scramble.join(' '),
  render: renderRubik,
  answerFormat: readAnswer(listAnswer('moves'), readMoves, (answer) => answer.tokens.length === 0),
  writeAnswer: writeMoves,
  validate: (instance, answer) => validateRubik(instance.data.state, answer),
  simulate: simulateRubik,
  // About 4 tokens per quoted move.
  maxOutputTokens: answerSizedBudget((scrambleLength) => 4 * scrambleLength + 8),
});
