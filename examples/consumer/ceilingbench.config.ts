import { defineConfig } from 'ceilingbench';

// Who answers comes from CEILINGBENCH_SUBJECT (e.g. openai:gpt-4o-mini) so that CI can switch models;
// the gate says what a model upgrade must keep.
export default defineConfig({
  gates: {
    // D2 (register tracking): the fitted per-step retention p_d must stay at or above 0.9.
    d2: { minRetention: 0.9 },
  },
});
