import { testMotifAblation } from '../../src/vitest/scc.js';

// Stimulus ablation (paper 003 Fig. 2E, Table S11; docs/spec/scc.md §9): the SCC ladder for each of the 11
// motifs, seeds 7 + run seed + motif index (the authors: 7 + case index), CC relative to the baseline `a, `.
testMotifAblation();
