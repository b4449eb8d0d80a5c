import { generateCell, resolveTask } from 'ceilingbench';
import { describeSweep } from 'ceilingbench/vitest';
import { expect, test } from 'vitest';

// Our own short D2 sweep: three depths, 20 trials each, on the configured subject, with the verbose prompt (the
// model restates every register after each step). The standard project d2 sweeps the standard prompt: a sweep
// here of the same task and prompt would measure its cells twice and show them twice in the reports.
describeSweep('d2', { levels: [5, 10, 15], trials: 20, variant: 'verbose' });

// The matchers work on any response: here the task's own canonical answer, which is right at every step.
test('the canonical D2 response is a valid trajectory', () => {
  const task = resolveTask('d2');
  const [instance] = generateCell(task, 5, 1);
  if (!instance) throw new Error('no instance generated');
  expect(task.canonicalResponse(instance)).toBeValidTrajectory(instance);
});
