import { type Dirent, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(new URL('../..', import.meta.url).pathname);

/**
 * The script a test runs as the `ceilingbench` command. The installed bin (bin/ceilingbench.js, plain Node on
 * dist/) when dist/ was built from the sources as they are now; otherwise the development shim
 * (scripts/dev-cli.js, tsx on src/), which always runs the current sources but pays the TypeScript loader at
 * every start (~5 CPU s of the ~15–20 a `ceilingbench run` child costs). Either way a test exercises src/ as it
 * is: dist/ counts as current only if it is younger than every file and folder under src/ (an edit, a new file,
 * a deleted or renamed one all touch a newer mtime; `npm run build` empties dist/ and writes it anew).
 */
export const CLI_BIN = distIsCurrent() ? join(ROOT, 'bin/ceilingbench.js') : join(ROOT, 'scripts/dev-cli.js');

function distIsCurrent(): boolean {
  const dist = join(ROOT, 'dist');
  const built = extremeMtime(dist, Math.min, Number.POSITIVE_INFINITY, false);
  if (!Number.isFinite(built)) return false;
  // the folder entries of src/ count too: deleting or renaming a module changes only its folder's mtime
  const edited = extremeMtime(join(ROOT, 'src'), Math.max, Number.NEGATIVE_INFINITY, true);
  return edited < built;
}

/** The least or greatest mtime of the files (and, with `folders`, the folders) under `dir`. */
function extremeMtime(dir: string, pick: (a: number, b: number) => number, start: number, folders: boolean): number {
  let result = start;
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
    if (folders) result = pick(result, statSync(dir).mtimeMs);
  } catch {
    return result;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    result = entry.isDirectory()
      ? pick(result, extremeMtime(path, pick, start, folders))
      : pick(result, statSync(path).mtimeMs);
  }
  return result;
}
