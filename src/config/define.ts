import type { CeilingbenchUserConfig } from './schema';

/** Typed helper for `ceilingbench.config.ts`: `export default defineConfig({ … })`. */
export const defineConfig = (config: CeilingbenchUserConfig): CeilingbenchUserConfig => config;
