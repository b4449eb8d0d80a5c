import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';

/**
 * The identity of a function subject's code: sha256 over its module and every module it imports from the
 * repository (relative specifiers, followed transitively, within `root` and outside node_modules), each keyed by its
 * path relative to the root. A pipeline edited without bumping its version gets another hash, so its answers are
 * not served from the cache of the old one, and the report names the code that answered. Packages
 * (`openai`, `node:fs`) are not hashed: their versions are the lockfile's business.
 */

// static and dynamic imports, re-exports and require() calls with a relative specifier (./x, ../y) only
const SPECIFIERS = [
  /\b(?:import|export)\s[^'";]*?\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]/g,
  /\bimport\s*['"](\.{1,2}\/[^'"]+)['"]/g,
  /\bimport\s*\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g,
  /\brequire\s*\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g,
];

const EXTENSIONS = ['.ts', '.mts', '.cts', '.tsx', '.js', '.mjs', '.cjs', '.jsx', '.json'];

const isFile = (path: string): boolean => existsSync(path) && statSync(path).isFile();

/** `./x.js` → the file it names: as written, TypeScript's `.ts` for a `.js` specifier, an added extension, an index. */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  const swapped = base.replace(/\.(m|c)?js$/, (_, k: string | undefined) => `.${k ?? ''}ts`);
  const candidates = [
    base,
    swapped,
    ...EXTENSIONS.map((e) => `${base}${e}`),
    ...EXTENSIONS.map((e) => resolve(base, `index${e}`)),
  ];
  return candidates.find(isFile);
}

/** `sha256:<first 16 hex digits>` of the module and its repository imports. */
export function codeHash(entry: string, root: string): string {
  const seen = new Set<string>();
  const queue = [resolve(entry)];
  const parts: string[] = [];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const rel = relative(root, file);
    if (rel.startsWith('..') || isAbsolute(rel) || rel.split(/[\\/]/).includes('node_modules')) continue;
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    parts.push(`${rel.split('\\').join('/')}\n${text}`);
    for (const pattern of SPECIFIERS)
      for (const m of text.matchAll(pattern)) {
        const target = resolveSpecifier(file, m[1]);
        if (target && !seen.has(target)) queue.push(target);
      }
  }
  const hash = createHash('sha256');
  for (const part of parts.sort()) hash.update(`${part}\u0000`);
  return `sha256:${hash.digest('hex').slice(0, 16)}`;
}
