import { describe, expect, it } from 'vitest';
import { designText, sweepDesignFromEnv } from '../../src/config/design.js';
import { ConfigError } from '../../src/errors.js';

describe('sweepDesignFromEnv: the CCB depth design from the environment', () => {
  it('grid by default; adaptive with its objective (cost when absent) and depth range', () => {
    expect(sweepDesignFromEnv({})).toEqual({ kind: 'grid' });
    expect(sweepDesignFromEnv({ CEILINGBENCH_DESIGN: 'adaptive' })).toEqual({ kind: 'adaptive' });
    expect(
      sweepDesignFromEnv({
        CEILINGBENCH_DESIGN: 'adaptive',
        CEILINGBENCH_ADAPTIVE_OBJECTIVE: 'calls',
        CEILINGBENCH_ADAPTIVE_DEPTHS: '1-100',
        CEILINGBENCH_TARGET_WIDTH: '0.02',
      }),
    ).toEqual({ kind: 'adaptive', objective: 'calls', depths: { min: 1, max: 100 }, targetWidth: 0.02 });
    // the adaptive knobs mean nothing to the grid
    expect(sweepDesignFromEnv({ CEILINGBENCH_ADAPTIVE_OBJECTIVE: 'nonsense' })).toEqual({ kind: 'grid' });
  });

  it('rejects an unknown objective and a malformed or inverted depth range, naming the variables', () => {
    const bad = (env: Record<string, string>) => () => sweepDesignFromEnv({ CEILINGBENCH_DESIGN: 'adaptive', ...env });
    expect(bad({ CEILINGBENCH_ADAPTIVE_OBJECTIVE: 'tokens' })).toThrow(ConfigError);
    expect(bad({ CEILINGBENCH_ADAPTIVE_OBJECTIVE: 'tokens' })).toThrow(/CEILINGBENCH_ADAPTIVE_OBJECTIVE/);
    expect(bad({ CEILINGBENCH_ADAPTIVE_DEPTHS: '5..50' })).toThrow(ConfigError);
    expect(bad({ CEILINGBENCH_ADAPTIVE_DEPTHS: '50-5' })).toThrow(/lowest depth must not exceed/);
    expect(bad({ CEILINGBENCH_ADAPTIVE_DEPTHS: '0-5' })).toThrow(ConfigError);
  });

  it('sequential with its batch and maximum per depth (defaults 2 and 4× the trials), rejecting non-integers', () => {
    expect(sweepDesignFromEnv({ CEILINGBENCH_DESIGN: 'sequential' })).toEqual({ kind: 'sequential' });
    expect(
      sweepDesignFromEnv({
        CEILINGBENCH_DESIGN: 'sequential',
        CEILINGBENCH_SEQUENTIAL_BATCH: '5',
        CEILINGBENCH_SEQUENTIAL_MAX: '200',
      }),
    ).toEqual({ kind: 'sequential', batch: 5, maxPerCell: 200 });
    expect(designText({ kind: 'sequential' })).toBe('sequential (batch 2, at most 4× the trials per depth)');
    expect(() =>
      sweepDesignFromEnv({ CEILINGBENCH_DESIGN: 'sequential', CEILINGBENCH_SEQUENTIAL_BATCH: '1.5' }),
    ).toThrow(/CEILINGBENCH_SEQUENTIAL_BATCH/);
  });
});
