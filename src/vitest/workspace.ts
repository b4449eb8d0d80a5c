import { existsSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { loadConfigFromFile } from 'vite';
import type { Plugin, TestProjectInlineConfiguration } from 'vitest/config';
import type { Vite } from 'vitest/node';
import { ConfigError } from '../config/errors.js';
import { type CeilingbenchPluginOptions, declareProjects, forPackage, inlineProjectNames } from './declare.js';
import { PACKAGE_MODULES, reportersToAdd, VITEST_CONFIG_FILES } from './files.js';

/** What the ceilingbench plugin exposes to other plugins (Vite's `api`): the options it was given. */
export interface CeilingbenchPluginApi {
  ceilingbench: { options: CeilingbenchPluginOptions };
}

async function flatten(option: Vite.PluginOption): Promise<Plugin[]> {
  const value = await option;
  if (!value) return [];
  if (Array.isArray(value)) return (await Promise.all(value.map(flatten))).flat();
  return [value as Plugin];
}

interface WorkspacePackage {
  root: string;
  configFile: string;
  options: CeilingbenchPluginOptions;
  /** The names of the package configuration's own inline projects. */
  other: string[];
}

/** A package folder (or its configuration file), with the options of the ceilingbench plugin its configuration uses. */
async function loadPackage(
  path: string,
  workspace: string,
  env: Vite.ConfigEnv,
  loader: Vite.InlineConfig['configLoader'],
): Promise<WorkspacePackage> {
  const isFile = existsSync(path) && statSync(path).isFile();
  const root = isFile ? dirname(path) : path;
  const configFile = isFile
    ? path
    : VITEST_CONFIG_FILES.map((name) => resolve(path, name)).find((file) => existsSync(file));
  const shown = relative(workspace, path) || '.';
  if (!configFile) {
    throw new ConfigError(`ceilingbenchWorkspace: no vitest.config.* or vite.config.* in ${shown}`);
  }
  const loaded = await loadConfigFromFile(env, configFile, root, 'silent', undefined, loader);
  const plugins = await flatten(loaded?.config.plugins ?? []);
  const api = plugins.find((p) => p.name === 'ceilingbench')?.api as CeilingbenchPluginApi | undefined;
  if (!api?.ceilingbench) {
    throw new ConfigError(
      `ceilingbenchWorkspace: ${relative(workspace, configFile)} does not use the ceilingbench plugin — add ` +
        "ceilingbench() from 'ceilingbench/plugin' to its plugins, or remove the package from ceilingbenchWorkspace()",
    );
  }
  return {
    root,
    configFile,
    options: api.ceilingbench.options,
    other: inlineProjectNames(loaded?.config.test?.projects),
  };
}

/**
 * The root-level registration of a workspace's ceilingbench packages, in the workspace root's vitest.config.ts:
 * declares each package's benchmark projects (as the plugin in the package's own configuration declares them:
 * its options, rooted at the package, extending its configuration file) and the reporter. Declared at the root,
 * they are filtered by `--project` like the root's other projects, so `vitest run --project d2` from the root
 * finds them; each resolves its package's ceilingbench.config.ts and writes to the package's reports/.
 *
 * ```ts
 * // vitest.config.ts at the workspace root
 * export default defineConfig({
 *   plugins: [ceilingbenchWorkspace('packages/bench')],
 *   test: { projects: ['packages/*'] },
 * });
 * ```
 */
export function ceilingbenchWorkspace(...packages: string[]): Plugin {
  return {
    name: 'ceilingbench:workspace',
    async config(userConfig, env) {
      // projects that extend the root configuration inherit its plugins; only the root declares
      if (userConfig.test?.name !== undefined) return undefined;
      const workspace = resolve(userConfig.test?.root ?? userConfig.root ?? process.cwd());
      const loader = (userConfig as Vite.InlineConfig).configLoader;
      const projects: TestProjectInlineConfiguration[] = [];
      const owner = new Map<string, string>();
      for (const path of packages) {
        const pkg = await loadPackage(resolve(workspace, path), workspace, env, loader);
        const declared = forPackage(await declareProjects(pkg.root, pkg.options, pkg.other), pkg.root, pkg.configFile);
        for (const project of declared) {
          const name = String(project.test?.name);
          const first = owner.get(name);
          if (first !== undefined) {
            throw new ConfigError(
              `ceilingbenchWorkspace: the benchmark project '${name}' is declared by both ${first} and ` +
                `${relative(workspace, pkg.root)}: Vitest needs unique project names — give one of them other ` +
                'projects (`projects`, `specs: { name }`)',
            );
          }
          owner.set(name, relative(workspace, pkg.root) || '.');
        }
        projects.push(...declared);
      }
      const reporters = reportersToAdd(userConfig.test?.reporters);
      return { test: { projects, reporters, server: { deps: { external: PACKAGE_MODULES } } } };
    },
  };
}
