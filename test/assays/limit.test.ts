import { describe, expect, it } from 'vitest';
import { mapLimit } from '../../src/assays/limit.js';

describe('mapLimit', () => {
  it('keeps input order and never exceeds the limit', async () => {
    let inFlight = 0;
    let peak = 0;
    const result = await mapLimit([5, 1, 4, 2, 3], 2, async (x, i) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight--;
      return `${i}:${x}`;
    });
    expect(result).toEqual(['0:5', '1:1', '2:4', '3:2', '4:3']);
    expect(peak).toBe(2);
  });

  it('rejects a limit that is not a positive integer', async () => {
    await expect(mapLimit([1], 0, async (x) => x)).rejects.toThrow(RangeError);
    await expect(mapLimit([1], 1.5, async (x) => x)).rejects.toThrow(RangeError);
  });

  it('starts nothing after an abort and rejects with the signal reason by default', async () => {
    const controller = new AbortController();
    const started: number[] = [];
    const run = mapLimit(
      [0, 1, 2, 3],
      1,
      async (x) => {
        started.push(x);
        if (x === 1) controller.abort(new Error('stop'));
        return x;
      },
      controller.signal,
    );
    await expect(run).rejects.toThrow('stop');
    expect(started).toEqual([0, 1]);
  });

  it('rejects with the abortError option when one is given', async () => {
    const controller = new AbortController();
    controller.abort();
    const run = mapLimit([0], 1, async (x) => x, controller.signal, { abortError: () => new Error('custom') });
    await expect(run).rejects.toThrow('custom');
  });
});
