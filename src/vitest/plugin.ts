import { resolve } from 'node:path';
import type { Plugin } from 'vitest/config';
import { adoptPackage, droppedProjects, leaveToRegistered } from './adopt.js';
import { type CeilingbenchPluginOptions, DEFAULT_SPECS, declareProjects, inlineProjectNames } from './declare.js';
import { ensureReporter } from './ensure-reporter.js';
import { PACKAGE_MODULES, reportersToAdd } from './files.js';
import { listBenchmarkCells } from './list-cells.js';
import { ownTestsProject } from './own-tests.js';
import { provideRunConfig } from './provide.js';
import { warnOnce } from './warn-once.js';
import type { CeilingbenchPluginApi } from './workspace.js';

export {
  /** @public The root vitest.config.ts plugin of a workspace whose packages each run ceilingbench (docs/monorepo.md). */
  ceilingbenchWorkspace,
} from './workspace.js';
export type {
  /** @public Options of the `ceilingbench()` plugin. */
  CeilingbenchPluginOptions,
};

/**
 * What the plugin does for a standard benchmark project, which does not extend the root configuration
 * (src/vitest/declare.ts): provide the run's configuration.
 */
function standardProjectPlugin(): Plugin {
  return {
    name: 'ceilingbench:project',
    async configureVitest(context) {
      listBenchmarkCells(context.vitest);
      ensureReporter(context.vitest);
      leaveToRegistered(context.vitest, context.project);
      await provideRunConfig(context.vitest, context.project);
    },
  };
}

/**
 * @public The Vitest plugin: adds the standard benchmark projects (the papers' grids, shipped with the package),
 * a project for the user's own spec folder, the matcher setup file and the reporter; resolves the
 * ceilingbench configuration once per run in the main process, against Vitest's root, and provides it to
 * every worker. In a package of a workspace run from the workspace root, the package's benchmark projects join
 * the workspace with the package's configuration (src/vitest/adopt.ts; docs/monorepo.md).
 *
 * ```ts
 * // vitest.config.ts
 * import { defineConfig } from 'vitest/config';
 * import { ceilingbench } from 'ceilingbench/plugin';
 * export default defineConfig({ plugins: [ceilingbench()] });
 * ```
 */
export function ceilingbench(options: CeilingbenchPluginOptions = {}): Plugin {
  const api: CeilingbenchPluginApi = { ceilingbench: { options } };
  return {
    name: 'ceilingbench',
    api,
    async config(userConfig) {
      // Projects inherit the root's plugins; only the root configuration adds the projects.
      if (userConfig.test?.name !== undefined) return undefined;
      const root = resolve(userConfig.test?.root ?? userConfig.root ?? process.cwd());
      const specsDir =
        options.specs === false
          ? undefined
          : typeof options.specs === 'object'
            ? options.specs.dir
            : (options.specs ?? DEFAULT_SPECS);
      const own = ownTestsProject(userConfig, root, options.tests, specsDir);
      const other = [...inlineProjectNames(userConfig.test?.projects), ...inlineProjectNames(own)];
      const projects = [...own, ...(await declareProjects(root, options, other, standardProjectPlugin()))];
      const reporters = reportersToAdd(userConfig.test?.reporters);
      return { test: { projects, reporters, server: { deps: { external: PACKAGE_MODULES } } } };
    },
    configResolved(config) {
      // the root's configuration resolves first, once its file is loaded (and Vite has warned about it)
      warnOnce(config.configFile, config.root);
    },
    async configureVitest(context) {
      listBenchmarkCells(context.vitest);
      ensureReporter(context.vitest);
      leaveToRegistered(context.vitest, context.project);
      const dropped = droppedProjects(context.vitest, context.project);
      if (dropped.length > 0) return adoptPackage(context, dropped);
      await provideRunConfig(context.vitest, context.project);
    },
  };
}
