import { registerTask } from 'ceilingbench';
import { testCountingCapacity } from 'ceilingbench/vitest';
import { wordtallyTask } from '../wordtally.js';

// The ladder family's one spec: register the plugin, then run the counting-capacity ladder on it.
// The family's module is typed against this checkout's sources (the contract tests run it in process); the run
// registers it in the package as built (dist/, the same sources compiled), whose classes TypeScript keeps apart.
registerTask(wordtallyTask as unknown as Parameters<typeof registerTask>[0]);
testCountingCapacity({ task: 'wordtally' });
