import { registerTask } from '../../../src/index.js';
import { describeSweep } from '../../../src/vitest/index.js';
import { zigzagTask } from '../zigzag.js';

// The fixture family's one spec: register the plugin, then sweep it like any shipped task.
registerTask(zigzagTask);
describeSweep('zigzag');
