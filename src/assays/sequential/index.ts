export {
  POWER_RUNS,
  runSequentialSweep,
  type SequentialSweepOptions,
  type SequentialSweepResult,
  type SequentialSweepSpec,
  sequentialDesignPower,
} from './sweep.js';
