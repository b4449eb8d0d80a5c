import { testAgentOperation } from '../../src/vitest/scc.js';

// Agent-operation assay (paper 003 Supplementary Note 8, Tables S9–S10; docs/spec/scc.md §11): four conditions,
// marker counts on the authors' jittered 50–1000 ladders (seed 17 + run seed, salted with the subject's model).
testAgentOperation();
