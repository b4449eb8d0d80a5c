import { describe, expect, it } from 'vitest';
import { runSccAssay } from '../../src/assays/scc/run.js';
import { createSubject } from '../../src/subjects/index.js';
import type { TrialRequest } from '../../src/subjects/subject.js';
import { NESTED_INSTRUCTION, nestedUserPrompt } from '../../src/tasks/nested/generate.js';
import { scriptedSubject } from './helpers.js';

describe('nested key-path assay on the SCC ladder', () => {
  it('asks the nested prompt of each target under the counting system prompt, on the same ladder', async () => {
    const requests: TrialRequest[] = [];
    const model = { capacity: 50, blank: 0, cut: 0, salt: 5 };
    const nested = await runSccAssay(scriptedSubject(model, requests), { seed: 7, task: 'nested' });
    const counting = await runSccAssay(scriptedSubject(model), { seed: 7 });
    expect(nested.task).toBe('nested');
    expect(nested.tiers.map((t) => t.targets)).toEqual(counting.tiers.map((t) => t.targets));
    expect({ cc: nested.cc, upper: nested.ccUpper }).toEqual({ cc: counting.cc, upper: counting.ccUpper });
    for (const request of requests.slice(0, 20)) {
      expect(request.taskId).toBe('nested');
      expect(request.prompt.user).toBe(nestedUserPrompt(request.instance.answer as number));
      expect(request.prompt.user.startsWith(NESTED_INSTRUCTION)).toBe(true);
    }
  });

  it('measures a bounded capacity for a simulated model', async () => {
    const result = await runSccAssay(await createSubject('sim:counting?cc=64'), { seed: 7, task: 'nested' });
    expect(result.bounded).toBe(true);
    expect(result.ccLower).toBeLessThanOrEqual(64);
    expect(result.ccUpper ?? 0).toBeGreaterThanOrEqual(56);
  });
});
