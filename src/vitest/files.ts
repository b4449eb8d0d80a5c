import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A module of this package by its path from this one: `name.js` in the built package, `name.ts` in the source tree. */
function sibling(name: string): string {
  const js = fileURLToPath(new URL(`${name}.js`, import.meta.url));
  return existsSync(js) ? js : fileURLToPath(new URL(`${name}.ts`, import.meta.url));
}

/**
 * This package's root folder (the one holding package.json, examples/, src/ and dist/). The build mirrors the
 * source tree under dist/ (dist/src, dist/specs, dist/reporters), so a built module sits one folder deeper.
 */
export const PACKAGE_ROOT_URL = new URL(import.meta.url.endsWith('.js') ? '../../../' : '../../', import.meta.url);

/** The standard grids, shipped with the package: one folder of spec files per standard project (specs/, dist/specs/). */
export const SPECS_DIR = fileURLToPath(new URL('../../specs/', import.meta.url));

/**
 * This package's own modules when they are the built JavaScript, for Vitest's `server.deps.external`: Node loads
 * them wherever the package is installed. Vitest leaves node_modules to Node; a copy that resolves elsewhere (linked
 * into a workspace, a git checkout, this repository's dist/) it would transform and evaluate module by module, in
 * the main process (the reporter) and in each worker (the standard spec files and what they import): a 3-trial d2
 * run cost 6.3-7.5 CPU s instead of 3.8-4.4. From the TypeScript sources (our unit tests) none: Node cannot load
 * them. (A string there names a package under node_modules; a folder goes as a regular expression.)
 */
export const PACKAGE_MODULES: RegExp[] = import.meta.url.endsWith('.js')
  ? [new RegExp(fileURLToPath(new URL('../../', import.meta.url)).replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))]
  : [];

export const SETUP_FILE = sibling('./setup');
export const REPORTER_FILE = sibling('../../reporters/reporter');
export const PROGRESS_REPORTER_FILE = sibling('../../reporters/progress-reporter');

/** Whether a configured reporter (a path or specifier) is the ceilingbench reporter, of this copy or an installed one. */
export const isCeilingbenchReporter = (name: string): boolean =>
  name === 'ceilingbench/reporter' ||
  resolve(name) === REPORTER_FILE ||
  /[\\/]ceilingbench[\\/]dist[\\/](reporters|vitest)[\\/]reporter\.js$/.test(name);

/**
 * Carried by an instance of the ceilingbench reporter (the CLI passes instances, not files: see `ceilingbench run`),
 * so that a copy of the plugin loaded through another module graph still recognises it.
 */
export const REPORTER_MARK = Symbol.for('ceilingbench:reporter');

/** Whether a resolved reporter entry (`[file, options]` or an instance) is the ceilingbench reporter. */
export const isCeilingbenchReporterEntry = (entry: unknown): boolean =>
  Array.isArray(entry)
    ? typeof entry[0] === 'string' && isCeilingbenchReporter(entry[0])
    : typeof entry === 'object' && entry !== null && REPORTER_MARK in entry;

/**
 * The reporters the plugin adds to a configuration's (`test.reporters`, merged after them): Vitest's default and
 * ours when none is configured, else ours, unless another plugin or the user listed it already.
 */
export function reportersToAdd(configured: unknown): string[] {
  if (configured === undefined) return ['default', REPORTER_FILE];
  const names = (Array.isArray(configured) ? configured : [configured]).map((r) => (Array.isArray(r) ? r[0] : r));
  return names.some((name) => typeof name === 'string' && isCeilingbenchReporter(name)) ? [] : [REPORTER_FILE];
}

/** Vitest's own config file names, in its lookup order: the first one that exists is the config it reads. */
export const VITEST_CONFIG_FILES = [
  'vitest.config.ts',
  'vitest.config.mts',
  'vitest.config.cts',
  'vitest.config.js',
  'vitest.config.mjs',
  'vitest.config.cjs',
  'vite.config.ts',
  'vite.config.mts',
  'vite.config.cts',
  'vite.config.js',
  'vite.config.mjs',
  'vite.config.cjs',
] as const;
