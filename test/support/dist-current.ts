import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Whether dist/ is the current sources compiled: `npm run build` writes dist/.built once tsc finished, and no file
 * or folder under src/ changed after it (folders count: a deleted or renamed module changes only its folder). The
 * same rule as scripts/dev-cli.js, which picks dist/ or src/ for the `ceilingbench` command.
 */
export function distIsCurrent(root: string): boolean {
  const built = join(root, 'dist/.built');
  if (!existsSync(built)) return false;
  try {
    const stamp = statSync(built).mtimeMs;
    const src = join(root, 'src');
    if (statSync(src).mtimeMs >= stamp) return false;
    for (const entry of readdirSync(src, { withFileTypes: true, recursive: true })) {
      if (!entry.isFile() && !entry.isDirectory()) continue;
      if (statSync(join(entry.parentPath, entry.name)).mtimeMs >= stamp) return false;
    }
    return true;
  } catch {
    return false;
  }
}
