import { describeSweep } from 'ceilingbench/vitest';

// A short D2 sweep of our own: the project `benchmarks` (a gate for it would go in ../ceilingbench.config.ts).
describeSweep('d2', { levels: [5, 10, 15], trials: 20 });
