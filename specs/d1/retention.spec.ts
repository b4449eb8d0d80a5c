import { describeSweep } from '../../src/vitest/index.js';

// The CCB grid for D1: depths N = 5…50, n = 40 per cell by default (CEILINGBENCH_TRIALS to change),
// the release's instances (seed 0), on the configured subject (CEILINGBENCH_SUBJECT, default sim:default).
describeSweep('d1');
