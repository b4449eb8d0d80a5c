export {
  runSequentialSweep,
  type SequentialSweepOptions,
  type SequentialSweepResult,
  type SequentialSweepSpec,
} from './sweep.js';
