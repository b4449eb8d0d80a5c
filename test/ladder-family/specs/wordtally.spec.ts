import { registerTask } from '../../../src/index.js';
import { testCountingCapacity } from '../../../src/vitest/index.js';
import { wordtallyTask } from '../wordtally.js';

// The ladder family's one spec: register the plugin, then run the counting-capacity ladder on it.
registerTask(wordtallyTask);
testCountingCapacity({ task: 'wordtally' });
