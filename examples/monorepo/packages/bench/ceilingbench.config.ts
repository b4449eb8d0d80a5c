import { defineConfig } from 'ceilingbench';

// The package's gates: they apply whether Vitest runs in this folder or at the workspace root.
export default defineConfig({
  gates: {
    // D2 (register tracking): the fitted per-step retention p_d must stay at or above 0.9.
    d2: { minRetention: 0.9 },
  },
});
