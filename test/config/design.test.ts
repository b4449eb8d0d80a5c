import { describe, expect, it } from 'vitest';
import { sweepDesignFromEnv } from '../../src/config/design.js';
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
});
