import { testCountingCapacity } from '../../src/vitest/scc.js';

// The SCC counting-capacity ladder (paper 003) on the configured subject, seeded with 7 + the run seed
// (the authors' configs use seed 7 for the first model).
testCountingCapacity();
