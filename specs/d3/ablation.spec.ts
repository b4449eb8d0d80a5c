import { describeAblation } from '../../src/vitest/index.js';

// Paper 000 ablations on D3 at N = 15: Standard vs Verbose and the prompt-structure variants A/B/C,
// paired on the same instances (the release's sensitivity set: seeds 150000…), exact McNemar.
describeAblation('d3', { level: 15, variants: ['standard', 'verbose', 'A', 'B', 'C'] });
