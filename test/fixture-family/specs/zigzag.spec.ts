import { registerTask } from 'ceilingbench';
import { describeSweep } from 'ceilingbench/vitest';
import { zigzagTask } from '../zigzag.js';

// The fixture family's one spec: register the plugin, then sweep it like any shipped task.
// The family's module is typed against this checkout's sources (the contract tests run it in process); the run
// registers it in the package as built (dist/, the same sources compiled), whose classes TypeScript keeps apart.
registerTask(zigzagTask as unknown as Parameters<typeof registerTask>[0]);
describeSweep('zigzag');
