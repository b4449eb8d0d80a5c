import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** This package's own folder (the one holding src/ and dist/), whichever of the two this module runs from. */
const PACKAGE_ROOT = fileURLToPath(new URL('../..', import.meta.url));

const real = (path: string): string => {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
};

/**
 * How Vite loads the repository's vitest.config.ts for `ceilingbench run`.
 *
 * A user's configuration imports the plugin from node_modules, which Vite's module runner externalises: the runner
 * transforms the configuration file alone, and writes nothing (its bundling loader writes a temporary file under
 * the user's node_modules/.vite-temp, which `ceilingbench run` never does there). In ceilingbench's own repository
 * the configuration imports the plugin from src/, TypeScript the runner transforms module by module (≈ 270 of
 * them: 3.4 CPU s against 1.8 for one rolldown bundle of the same graph); there the bundling loader is used, its
 * temporary file going to this repository's own node_modules.
 */
export function configLoaderFor(root: string): 'runner' | 'bundle' {
  return real(root) === real(PACKAGE_ROOT) ? 'bundle' : 'runner';
}
