import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UsageError } from '../../errors.js';
import { type DefinedSubject, isDefinedSubject } from './define.js';

/**
 * Imports a module by its absolute path. A function cannot cross from the main process to a Vitest worker, a
 * module path can: every process that needs the subject imports the module itself, with what loads TypeScript
 * there (Vite's module runner in Vitest, a native `import()` elsewhere).
 */
export type ModuleImporter = (absolutePath: string) => Promise<unknown>;

/** Native `import()`: JavaScript, or TypeScript under a loader (tsx, a Node with type stripping). */
export const nativeModuleImport: ModuleImporter = (path) => import(/* @vite-ignore */ pathToFileURL(path).href);

const problem = (spec: string, text: string): UsageError =>
  new UsageError(`subject '${spec}': ${text}`, 'CB_SUBJECT_SPEC');

/**
 * The `defineSubject` export a `module:<path>#<export>` spec names, its path resolved from `root` (the project
 * root, never the current directory of a worker). A missing file, a module that fails to load, a missing export
 * or an export that is not a `defineSubject` result is a usage error (exit 2) that says which.
 */
export async function loadModuleSubject(
  ref: { path: string; exportName: string },
  spec: string,
  root: string,
  importModule: ModuleImporter = nativeModuleImport,
): Promise<DefinedSubject> {
  const path = isAbsolute(ref.path) ? ref.path : resolve(root, ref.path);
  if (!existsSync(path)) throw problem(spec, `no module at ${path} (the path is relative to the project root ${root})`);
  let module: Record<string, unknown>;
  try {
    module = (await importModule(path)) as Record<string, unknown>;
  } catch (error) {
    throw problem(spec, `${path} cannot be loaded: ${error instanceof Error ? error.message : String(error)}`);
  }
  const value = module?.[ref.exportName];
  if (value === undefined) {
    const exported = Object.keys(module ?? {}).filter((name) => isDefinedSubject(module[name]));
    const hint =
      exported.length > 0
        ? `its defineSubject() exports: ${exported.map((n) => `#${n}`).join(', ')}`
        : 'it exports no defineSubject() result';
    throw problem(spec, `${path} has no export '${ref.exportName}' (${hint})`);
  }
  if (!isDefinedSubject(value)) {
    throw problem(
      spec,
      `export '${ref.exportName}' of ${path} is not a subject: export the result of defineSubject({ id, answer })`,
    );
  }
  return value;
}

/**
 * The `defineSubject` subject `function:<id>` names: the one of that id in the configuration file's `subject` or
 * `subjects` (the file is imported again in each process that needs it; its subjects are not data to provide).
 */
export async function loadConfigSubject(
  id: string,
  spec: string,
  configFile: string | null | undefined,
  importModule: ModuleImporter = nativeModuleImport,
): Promise<DefinedSubject> {
  if (!configFile) {
    throw problem(
      spec,
      'names a defineSubject() subject of ceilingbench.config.ts, but no configuration file was read',
    );
  }
  let module: { default?: { subject?: unknown; subjects?: unknown } };
  try {
    module = (await importModule(configFile)) as typeof module;
  } catch (error) {
    throw problem(spec, `${configFile} cannot be loaded: ${error instanceof Error ? error.message : String(error)}`);
  }
  const config = module?.default ?? {};
  const listed = [config.subject, ...(Array.isArray(config.subjects) ? config.subjects : [])].filter(isDefinedSubject);
  const found = listed.find((subject) => subject.id === id);
  if (!found) {
    const ids = listed.map((subject) => `'${subject.id}'`).join(', ') || 'none';
    throw problem(spec, `${configFile} lists no defineSubject() subject with id '${id}' (its ids: ${ids})`);
  }
  return found;
}
