import { budgetPerLevel, definePuzzle, jsonLines, listAnswer } from '../common/index.js';
import { generateHanoi, HANOI_DISKS } from './generate.js';
import { renderHanoi } from './render.js';
import { simulateHanoi } from './simulate.js';
import { validateHanoi } from './validate.js';

export const hanoiTask = definePuzzle({
  id: 'hanoi',
  title: 'Tower of Hanoi',
  levels: HANOI_DISKS,
  knob: (disks) => disks,
  fixedInstancePerLevel: true,
  generate: generateHanoi,
  instanceKey: (instance) => `hanoi:n=${instance.data.disks}`,
  render: renderHanoi,
  answerFormat: listAnswer('moves'),
  writeAnswer: jsonLines,
  validate: (instance, moves) => validateHanoi(instance.data.disks, moves),
  simulate: simulateHanoi,
  simulatedReasoning: 'Working through the recursion step by step.',
  // ≥ 4× the canonical answer's length (≈ 9 tokens per move) plus room to reason; L6's answer alone is ≈ 9.2k tokens.
  maxOutputTokens: budgetPerLevel([4096, 4096, 8192, 8192, 16384, 32768]),
});
