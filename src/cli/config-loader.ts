import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PACKAGE_ROOT_URL } from '../vitest/files.js';

/** This package's own folder (the one holding src/ and dist/), whichever of the two this module runs from. */
const PACKAGE_ROOT = fileURLToPath(PACKAGE_ROOT_URL);

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
 * the user's node_modules/.vite-temp, which `ceilingbench run` never does there). ceilingbench's own configuration
 * imports the plugin by the package's name too, but that resolves into this folder (dist/), not node_modules, so
 * the runner would transform its ~250 modules; the bundling loader leaves every bare import to Node (one small
 * bundle, the plugin the module this command has loaded already), its temporary file under this repository's own
 * node_modules.
 */
export function configLoaderFor(root: string): 'runner' | 'bundle' {
  return real(root) === real(PACKAGE_ROOT) ? 'bundle' : 'runner';
}
