import { describeSweep } from '../../src/vitest/index.js';

// One cell per level L1–L6 (docs/spec/puzzles.md §1.2), n = 40 per cell by default, then accuracy by level and λ*.
describeSweep('jug');
