import { describeSweep } from 'ceilingbench/vitest';
import pipeline from '../subject.js';

// FIXTURE_OWN_SUBJECT=1: the spec passes its subject itself; otherwise the run's subject answers
// (`--subject module:./subject.ts`).
describeSweep('d2', {
  levels: [5, 10, 15],
  ...(process.env.FIXTURE_OWN_SUBJECT === '1' ? { subject: pipeline } : {}),
});
