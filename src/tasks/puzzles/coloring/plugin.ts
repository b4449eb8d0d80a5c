import { budgetPerLevel, definePuzzle, objectAnswer } from '../common/index.js';
import { COLORING_LEVELS, generateColoring } from './generate.js';
import { renderColoring, writeColouring } from './render.js';
import { simulateColoring } from './simulate.js';
import { validateColouring } from './validate.js';

export const coloringTask = definePuzzle({
  id: 'coloring',
  title: 'Graph colouring',
  // Tuple-valued levels (n, m, k): no scalar knob, λ* only on the level index (docs/spec/puzzles.md §1.3).
  levels: COLORING_LEVELS,
  generate: generateColoring,
  instanceKey: (i) =>
    `coloring:${i.data.vertices},${i.data.colours}:${i.data.edges.map(([u, v]) => `${u}-${v}`).join(',')}`,
  render: renderColoring,
  answerFormat: objectAnswer('coloring'),
  writeAnswer: writeColouring,
  validate: ({ data }, colouring) => validateColouring(data.vertices, data.colours, data.edges, colouring),
  simulate: simulateColoring,
  simulatedReasoning: 'Assigning colours vertex by vertex, checking neighbours.',
  // The L6 map is ≈ 40 × 6 tokens; the budget is for the search.
  maxOutputTokens: budgetPerLevel([4096, 4096, 8192, 8192, 16384, 16384]),
});
