import { defineConfig } from 'ceilingbench';

// Who answers comes from CEILINGBENCH_SUBJECT (e.g. openai:gpt-4o-mini) so that CI can switch models;
// the gate says what a model upgrade must keep.
export default defineConfig({
  gates: {
    // D2 (register tracking): the fitted per-step retention p_d must stay at or above 0.9.
    d2: { minRetention: 0.9 },
    // Recommended for a gate alone (docs/gates.md#which-design-for-a-gate): a test that fails a model at 0.9 at most
    // 5% of the time and catches one at 0.88 about 85% of the time, with CEILINGBENCH_DESIGN=sequential stopping as
    // soon as it is decided (fewer calls than the grid; at most 4× it). The grid above reports p_d more precisely.
    // d2: { minRetention: { value: 0.9, evidence: 'test', alpha: 0.05, margin: 0.02 } },
  },
});
