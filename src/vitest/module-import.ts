import { runnerImport } from 'vite';
import { type ModuleImporter, nativeModuleImport } from '../subjects/function/module-ref.js';

/**
 * How a Vitest worker imports a `module:` subject: TypeScript through a Vite module runner rooted at the project
 * (as ceilingbench.config.ts is loaded before Vitest starts; bare imports such as `ceilingbench` or `openai` stay
 * native, so the module shares the worker's copies), JavaScript natively. Once per worker and subject.
 */
export const workerModuleImporter =
  (root: string): ModuleImporter =>
  async (path) => {
    if (!/\.[mc]?tsx?$/.test(path)) return nativeModuleImport(path);
    const { module } = await runnerImport(path, { root, configFile: false, logLevel: 'silent' });
    return module;
  };
