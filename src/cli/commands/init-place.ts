import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

/**
 * Where `init` puts what: the package it sets up may be a repository of its own, a package of an npm/yarn/pnpm
 * workspace, or a folder inside a larger git repository. GitHub reads workflows only from the repository's root,
 * and a workspace installs its dependencies once, at the workspace root.
 */
export interface InitPlace {
  /** The package `init` sets up (absolute): its config, gate, spec files and `.gitignore`. */
  root: string;
  /** Where `.github/workflows/` goes: the git root, else the workspace root, else `root`. */
  repository: string;
  /** Where `npm ci` runs: the workspace root holding `root`, else `root`. */
  install: string;
  /** The workspace root when `root` is one of its packages (not the workspace root itself). */
  workspace: string | undefined;
}

interface Manifest {
  workspaces?: unknown;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

function readManifest(dir: string): Manifest | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
  } catch {
    return undefined; // absent or not JSON: the package's own package.json is checked by init itself
  }
}

/** The folders from `dir` up to the file system's root, `dir` first. */
function ancestors(dir: string): string[] {
  const out = [dir];
  for (let parent = dirname(dir); parent !== out[out.length - 1]; parent = dirname(parent)) out.push(parent);
  return out;
}

/** The workspace patterns of a package.json (`workspaces: [...]` or `{ packages: [...] }`) or a pnpm-workspace.yaml. */
function workspacePatterns(dir: string): string[] {
  const manifest = readManifest(dir);
  const field = manifest?.workspaces;
  const list = Array.isArray(field) ? field : (field as { packages?: unknown } | undefined)?.packages;
  const patterns = Array.isArray(list) ? list.filter((p): p is string => typeof p === 'string') : [];
  const pnpm = join(dir, 'pnpm-workspace.yaml');
  if (existsSync(pnpm)) {
    // the `packages:` list, one `- 'glob'` a line: enough to tell whether a folder is one of them
    for (const match of readFileSync(pnpm, 'utf8').matchAll(/^\s*-\s*['"]?([^'"#\n]+?)['"]?\s*$/gm)) {
      if (match[1] !== undefined) patterns.push(match[1]);
    }
  }
  return patterns;
}

/** A workspace glob (`packages/*`, `apps/**`, `tools/bench`) as a test on a relative, `/`-separated path. */
function globMatches(pattern: string, path: string): boolean {
  if (pattern.startsWith('!')) return false;
  const body = pattern
    .replace(/^\.\//, '')
    .replace(/\/+$/, '')
    .split('/')
    .map((part) => (part === '**' ? '.*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')))
    .join('/');
  return new RegExp(`^${body}$`).test(path);
}

const posix = (path: string) => path.split(sep).join('/');

/** Finds the git root and the workspace root around `root`; never looks above the git root. */
export function findPlace(root: string): InitPlace {
  const chain = ancestors(root);
  const gitIndex = chain.findIndex((dir) => existsSync(join(dir, '.git')));
  const scope = gitIndex === -1 ? chain : chain.slice(0, gitIndex + 1);
  const workspace = scope
    .slice(1)
    .find((dir) => workspacePatterns(dir).some((pattern) => globMatches(pattern, posix(relative(dir, root)))));
  const git = gitIndex === -1 ? undefined : chain[gitIndex];
  return { root, repository: git ?? workspace ?? root, install: workspace ?? root, workspace };
}

/** `to` relative to `from`, `/`-separated; '' when they are the same folder. */
export function relativePath(from: string, to: string): string {
  return posix(relative(from, to));
}

/**
 * Whether a package is there for `root`: declared in its package.json or the workspace root's, or installed in a
 * node_modules Node would resolve it from (up to the workspace or git root).
 */
export function isInstalled(place: InitPlace, name: string): boolean {
  const declared = (dir: string) => {
    const manifest = readManifest(dir);
    return Boolean(manifest?.dependencies?.[name] ?? manifest?.devDependencies?.[name]);
  };
  if (declared(place.root) || (place.workspace !== undefined && declared(place.workspace))) return true;
  const top = place.workspace ?? place.repository;
  for (const dir of ancestors(place.root)) {
    if (existsSync(join(dir, 'node_modules', name, 'package.json'))) return true;
    if (dir === top) break;
  }
  return false;
}
