import { testDualTask } from '../../src/vitest/scc.js';

// Dual-task interference (paper 003 Supplementary Note 7, Fig. 2F; docs/spec/scc.md §12): counts 32–96 (step 4)
// with a D2 (N = 10) or SAT (L2) secondary task, a length-matched code block or a second count of b.
testDualTask();
