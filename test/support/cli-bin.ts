import { join, resolve } from 'node:path';

const ROOT = resolve(new URL('../..', import.meta.url).pathname);

/**
 * The script a test runs as the `ceilingbench` command: the development shim, which runs dist/ on plain Node when
 * `npm run build` finished after the last change under src/, specs/ or reporters/ (its stamp dist/.built is newer
 * than every file and folder there), else src/ through tsx. Either way a test exercises src/ as it is; a child skips tsx's loader
 * (~5 CPU s of the ~15–20 a `ceilingbench run` child costs) whenever the build is current.
 */
export const CLI_BIN = join(ROOT, 'scripts/dev-cli.js');
