import { answerSizedBudget, definePuzzle, objectAnswer, readAnswer } from '../common/index.js';
import { generateSat, SAT_LEVELS } from './generate.js';
import { renderSat, writeAssignment } from './render.js';
import { simulateSat } from './simulate.js';
import { readAssignment, validateSat } from './validate.js';

export const satTask = definePuzzle({
  id: 'sat',
  title: 'Boolean 3-SAT (planted, q-hidden)',
  levels: SAT_LEVELS,
  generate: generateSat,
  instanceKey: (instance) => JSON.stringify(instance.data.clauses),
  render: renderSat,
  answerFormat: readAnswer(objectAnswer('assignment'), readAssignment, (answer) => answer.values.size === 0),
  writeAnswer: writeAssignment,
  validate: (instance, answer) => validateSat(instance.data.clauses, answer),
  simulate: simulateSat,
  // About 6 tokens per `"k": false` entry.
  maxOutputTokens: answerSizedBudget(({ n }) => 6 * n + 8),
});
