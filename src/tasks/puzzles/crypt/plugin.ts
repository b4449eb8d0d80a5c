import { answerSizedBudget, definePuzzle, objectAnswer, readAnswer } from '../common/index.js';
import { CRYPT_LEVELS, generateCrypt } from './generate.js';
import { renderCrypt, writeMapping } from './render.js';
import { simulateCrypt } from './simulate.js';
import { readMapping, validateCrypt } from './validate.js';

export const cryptTask = definePuzzle({
  id: 'crypt',
  title: 'Cryptarithmetic (addition, unique solution)',
  levels: CRYPT_LEVELS,
  generate: generateCrypt,
  instanceKey: (instance) => instance.data.equation,
  render: renderCrypt,
  answerFormat: readAnswer(objectAnswer('mapping'), readMapping, (answer) => answer.entries.length === 0),
  writeAnswer: writeMapping,
  validate: ({ data }, answer) => validateCrypt(data.addends, data.result, answer),
  simulate: simulateCrypt,
  // About 5 tokens per `"A": 1` entry.
  maxOutputTokens: answerSizedBudget(({ maxLetters }) => 5 * maxLetters + 8),
});
