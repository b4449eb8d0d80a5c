import { relative, resolve } from 'node:path';
import type { TestProjectInlineConfiguration } from 'vitest/config';
import type { TestProject, Vitest, VitestPluginContext } from 'vitest/node';
import { ConfigError } from '../config/errors.js';
import { declaredProjectName } from '../tasks/project-names.js';
import { DECLARED_KEY, declaredIn, forPackage, projectNames } from './declare.js';
import { ensureReporter } from './ensure-reporter.js';
import { provideRunConfig } from './provide.js';

/**
 * The benchmark projects the plugin declared for a configuration that Vitest loaded as one project of a workspace
 * (`projects: ['packages/*']` at the root): Vitest does not nest projects, so they were dropped. None for a project
 * of Vitest's own configuration, whose declared projects Vitest resolved.
 */
export function droppedProjects(vitest: Vitest, project: TestProject): TestProjectInlineConfiguration[] {
  if (project.vite === vitest.vite) return [];
  return declaredIn(project.vite.config.test?.projects);
}

const declaredRootOf = (project: TestProject): string | undefined => {
  const root = project.config.provide?.[DECLARED_KEY]?.root;
  return root === undefined ? undefined : resolve(root);
};

/**
 * Vitest 5 runs a package's configuration among the workspace root's `projects: ['packages/*']` as a container, and
 * the projects the plugin declared there as its own (`bench (d2)`). When the workspace root registered the package
 * too (ceilingbenchWorkspace), the same benchmark project is there twice: the container's copy collects nothing, so
 * that each runs once, gated, with one report set per ceilingbench root (docs/monorepo.md).
 */
export function leaveToRegistered(vitest: Vitest, project: TestProject): void {
  const declared = project.config.provide?.[DECLARED_KEY];
  const name = declaredProjectName(project.name, declared?.benchmark);
  if (name === project.name) return;
  const root = declaredRootOf(project);
  const registered = vitest.projects.some((p) => p !== project && p.name === name && declaredRootOf(p) === root);
  if (registered && !project.config.exclude.includes('**/*')) project.config.exclude.push('**/*');
}

/** The spec folders of the package's own projects, left to those projects: the package's project runs the rest. */
function excludeSpecFolders(project: TestProject, projects: readonly TestProjectInlineConfiguration[]): void {
  const base = project.config.dir || project.config.root;
  for (const declared of projects) {
    const dir = declared.test?.dir;
    if (!dir) continue;
    const inside = relative(base, dir);
    if (inside === '' || inside.startsWith('..') || resolve(base, inside) !== resolve(dir)) continue;
    const glob = `${inside.split('\\').join('/')}/**`;
    if (!project.config.exclude.includes(glob)) project.config.exclude.push(glob);
  }
}

/**
 * A package's configuration loaded as a project of a workspace: its benchmark projects join the workspace, rooted
 * at the package and reading its configuration (gates, reports/, cache), unless the workspace root declared them
 * already (`ceilingbenchWorkspace`); the package's project provides the package's configuration to its own tests
 * and leaves the spec folders to the benchmark projects. Injected projects pass the run's `--project` filter like
 * any other; a filter that leaves out the package's own project never gets here (hence `ceilingbenchWorkspace`).
 */
export async function adoptPackage(
  { vitest, project, injectTestProjects }: VitestPluginContext,
  dropped: readonly TestProjectInlineConfiguration[],
): Promise<void> {
  const root = resolve(project.config.root);
  excludeSpecFolders(project, dropped);
  await provideRunConfig(vitest, project, root);
  if (vitest.projects.some((p) => declaredRootOf(p) === root)) return;
  const owners = new Map(vitest.projects.map((p) => [p.name, p]));
  const clashes = projectNames(dropped).filter((name) => owners.has(name));
  if (clashes.length > 0) {
    const owner =
      owners.get(clashes[0]) === project
        ? "the package's own project (named after its package.json)"
        : 'another project of the workspace';
    throw new ConfigError(
      `ceilingbench plugin: the package at ${root} declares the benchmark project(s) ${clashes.join(', ')}, and ` +
        `${owner} has that name: Vitest needs unique project names — give the benchmark projects other names ` +
        '(`projects`, `specs: { name }`)',
    );
  }
  const injected = await injectTestProjects(forPackage(dropped, root, project.vite.config.configFile));
  // Vitest calls `configureVitest` of the projects it resolved, not of injected ones
  for (const benchmark of injected) await provideRunConfig(vitest, benchmark);
  // reporters are the root configuration's only: ours joins them (a `--reporter` flag adds to it, never removes it)
  if (injected.length > 0) ensureReporter(vitest);
}
