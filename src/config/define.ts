import type { CeilingbenchUserConfig } from './schema.js';

/** Typed helper for `ceilingbench.config.ts`: `export default defineConfig({ … })`. */
export const defineConfig = (config: CeilingbenchUserConfig): CeilingbenchUserConfig => config;
