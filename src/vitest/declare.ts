import { existsSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { runnerImport } from 'vite';
import type { Plugin, TestProjectConfiguration, TestProjectInlineConfiguration } from 'vitest/config';
import { ConfigError } from '../config/errors.js';
import { loadSubjects, nativeImport } from '../config/load.js';
import { subjectLabels } from '../subjects/label.js';
import { standardProjects, withSubject } from '../tasks/project-names.js';
import { BENCHMARK_MARK } from './benchmark-mark.js';
import { type ProjectSubject, SUBJECTS_KEY } from './context.js';
import { PACKAGE_MODULES, SETUP_FILE, SPECS_DIR } from './files.js';

export interface CeilingbenchPluginOptions {
  /** Standard projects to add (default: all of d1, d2, d3, puzzles, scc); `false` adds none. */
  projects?: readonly string[] | false;
  /**
   * The user's own spec files: a folder (relative to Vitest's root) run as one more project, named after the
   * folder unless `name` says otherwise. Default: `benchmarks`, when that folder exists.
   */
  specs?: string | { dir: string; name?: string } | false;
  /** Per-test timeout of benchmark cells in ms (default 30 min: a cell waits on a real endpoint). */
  testTimeout?: number;
  /** Tests in flight per project (default 10). */
  maxConcurrency?: number;
  /**
   * The project that keeps the configuration's own tests (its `test.include`) beside the benchmark projects, when
   * it declares no projects of its own: its name (default `tests`), or `false` for none.
   */
  tests?: string | false;
}

export const DEFAULT_SPECS = 'benchmarks';
/** The extensions of a spec file; SPEC_FILES is the include pattern, isSpecFile the same test on a path. */
const SPEC_EXTENSIONS = ['ts', 'mts', 'js', 'mjs'] as const;
const SPEC_FILES = [`**/*.spec.{${SPEC_EXTENSIONS.join(',')}}`];
export const isSpecFile = (path: string): boolean =>
  SPEC_EXTENSIONS.some((ext) => path.endsWith(`.spec.${ext}`)) && !path.endsWith('.d.ts');

/** The projects of a configuration as the plugin declared them (provided to each benchmark project). */
export interface DeclaredProjects {
  /**
   * The benchmark projects the plugin added, before any `--project` filter, as records and gates name them: with
   * several subjects one per (project, subject), `d2@<label>`.
   */
  benchmark: string[];
  /** The names of the configuration's other inline projects. */
  other: string[];
  /** Each benchmark Vitest project's folder (absolute): its spec files are the evidence manifest's (reporter). */
  dirs?: Record<string, string>;
  /**
   * The ceilingbench root the projects were declared for (its ceilingbench.config.ts, reports/ and cache): Vitest's
   * root, or a package of a workspace. Absent (a declaration from before it was kept): Vitest's root.
   */
  root?: string;
}
export const DECLARED_KEY = 'ceilingbench:declared' as const;

/**
 * One Vitest project per standard project (or spec folder), whatever the number of subjects: with several it
 * provides them all and its spec files describe one block per subject, whose tests, records and gate keys say
 * `<project>@<label>` (src/vitest/sweep.ts, scc.ts). A project per subject cost a Vite server, a setup and a worker
 * per subject, 2-3 CPU s each (BENCHMARKS.md, "per subject"); a subject now costs its trials.
 * `standard`: one of the package's own projects (its spec files), not the user's folder. `own`: the plugin that provides
 * the run's configuration to a project that does not extend the root configuration (a standard project: see
 * `declareProjects`); without it the project extends the root configuration (or, in a workspace, the package's).
 */
function benchmarkProject(
  name: string,
  dir: string,
  options: CeilingbenchPluginOptions,
  subjects: readonly ProjectSubject[] | undefined,
  standard: boolean,
  own?: Plugin,
): TestProjectInlineConfiguration {
  return {
    ...(own ? { plugins: [own] } : { extends: true }),
    test: {
      name,
      dir,
      include: SPEC_FILES,
      exclude: ['**/node_modules/**', '**/*.d.ts'],
      setupFiles: [SETUP_FILE],
      testTimeout: options.testTimeout ?? 1_800_000,
      hookTimeout: 600_000,
      maxConcurrency: options.maxConcurrency ?? 10,
      // Our own spec files share one worker per project instead of one fork each (the nine puzzle files paid nine
      // start-ups): they hold no state of their own, and what a worker keeps (a subject's cache, limiter, ledger
      // client) is the run's anyway. A user's spec folder keeps Vitest's isolation. Whoever declares them: declared
      // at a workspace root (ceilingbenchWorkspace, extending the package's configuration file) they had Vitest's
      // default, and a root `vitest list --project puzzles` started nine workers (5.0 CPU s against 1.2 in the package).
      ...(standard ? { isolate: false } : {}),
      // The package's own modules are Node's to load (files.ts), in every benchmark project: one that does not
      // extend the root configuration does not inherit them from it, and one that does (a user's spec folder) does
      // not either — the plugin adds them to the resolved root configuration, after \`extends: true\` copied the
      // user's. Without them a linked copy (a workspace link, a git checkout) was transformed module by module in
      // each worker of the user's folder: 5.1 CPU s instead of 2.5 for a two-file folder at 3 trials.
      server: { deps: { external: PACKAGE_MODULES } },
      provide: subjects ? { [BENCHMARK_MARK]: true, [SUBJECTS_KEY]: [...subjects] } : { [BENCHMARK_MARK]: true },
    },
  };
}

function userProjects(
  root: string,
  options: CeilingbenchPluginOptions,
  subjects: readonly ProjectSubject[] | undefined,
): TestProjectInlineConfiguration[] {
  const specs = options.specs ?? DEFAULT_SPECS;
  if (specs === false) return [];
  const { dir, name } = typeof specs === 'string' ? { dir: specs, name: undefined } : specs;
  const absolute = resolve(root, dir);
  const exists = existsSync(absolute) && statSync(absolute).isDirectory();
  if (!exists) {
    if (options.specs === undefined) return [];
    throw new ConfigError(
      `ceilingbench plugin: specs folder '${dir}' does not exist under ${root} — create it or remove the option`,
    );
  }
  return [benchmarkProject(name ?? basename(absolute), absolute, options, subjects, false)];
}

/**
 * ceilingbench.config.ts before Vitest runs: through Vite's module runner (TypeScript on plain Node), writing nothing.
 * Vite is imported statically: a vitest.config.ts loaded by Vite's module runner (`configLoader: 'runner'`) that
 * inlines this module closes its runner before the plugin's hooks run, and a dynamic import would go through it.
 */
async function importConfigFile(path: string, root: string): Promise<unknown> {
  if (!/\.[mc]?ts$/.test(path)) return nativeImport(path);
  const { module } = await runnerImport(path, { root, configFile: false, logLevel: 'silent' });
  return module;
}

/**
 * The run's subjects, as the projects are declared (before `configureVitest` resolves the whole configuration):
 * with one subject, undefined (the projects run the run's subject, unlabelled); with several, each with its label.
 */
async function projectSubjects(root: string): Promise<ProjectSubject[] | undefined> {
  const specs = await loadSubjects(process.env, root, (path) => importConfigFile(path, root));
  if (specs.length === 1) return undefined;
  const labels = subjectLabels(specs);
  return specs.map((spec, i) => ({ spec, label: labels[i] }));
}

/** The names of a configuration's inline projects (`test.projects`). */
export function inlineProjectNames(projects: readonly TestProjectConfiguration[] | undefined): string[] {
  return (projects ?? []).flatMap((p) => {
    const name = typeof p === 'object' && p !== null && 'test' in p ? p.test?.name : undefined;
    return typeof name === 'string' ? [name] : typeof name === 'object' && name ? [name.label] : [];
  });
}

/**
 * The benchmark projects for a ceilingbench root: the standard projects the options name, the user's spec folder,
 * one per subject of the run; each provides the mark and the whole declaration (`other`: the configuration's own
 * inline projects).
 *
 * `standalone`: a plugin that provides the run's configuration; the standard projects then carry it instead of
 * extending the root configuration. Their spec files are the package's own and need nothing of the user's
 * configuration, and `extends: true` made Vitest load the configuration file again for every project (twice, each
 * time through Vite's module runner): in a repository whose vitest.config.ts imports the plugin from TypeScript
 * sources, that was the whole plugin's module graph transformed twice per project, half of a run's start-up
 * (BENCHMARKS.md, "Start-up"). The user's spec folder still extends the root configuration (its aliases and plugins).
 */
export async function declareProjects(
  root: string,
  options: CeilingbenchPluginOptions,
  other: string[],
  standalone?: Plugin,
): Promise<TestProjectInlineConfiguration[]> {
  const subjects = await projectSubjects(root);
  const names = options.projects === false ? [] : (options.projects ?? standardProjects());
  const known = standardProjects();
  const unknown = names.filter((n) => !known.includes(n));
  if (unknown.length > 0) {
    throw new ConfigError(
      `ceilingbench plugin: unknown standard project '${unknown.join(', ')}' — use some of ${known.join(', ')}`,
    );
  }
  const projects = names.map((name) =>
    benchmarkProject(name, resolve(SPECS_DIR, name), options, subjects, true, standalone),
  );
  projects.push(...userProjects(root, options, subjects));
  // every benchmark project knows them all (each project loads its own copy of the plugin)
  const dirs = Object.fromEntries(projects.map((p) => [String(p.test?.name), String(p.test?.dir)]));
  // the root always: Vitest 5 runs a package's configuration among `projects: ['packages/*']` as a container whose
  // projects are these, rooted at the workspace's Vitest — its gates, reports and cache are the package's
  const declared: DeclaredProjects = { benchmark: subjectProjectNames(projects), other, dirs, root };
  for (const project of projects)
    project.test = { ...project.test, provide: { ...project.test?.provide, [DECLARED_KEY]: declared } };
  return projects;
}

export const projectNames = (projects: readonly TestProjectInlineConfiguration[]): string[] =>
  projects.map((p) => p.test?.name).filter((n): n is string => typeof n === 'string');

/** The names records and gates give the projects: `<project>@<label>` per subject of a project with several. */
export const subjectProjectNames = (projects: readonly TestProjectInlineConfiguration[]): string[] =>
  projects.flatMap((p) => {
    const name = p.test?.name;
    if (typeof name !== 'string') return [];
    const subjects = p.test?.provide?.[SUBJECTS_KEY] as ProjectSubject[] | undefined;
    return subjects ? subjects.map((s) => withSubject(name, s.label)) : [name];
  });

/** The inline projects among a configuration's that the plugin declared (they provide the benchmark mark). */
export function declaredIn(projects: readonly unknown[] | undefined): TestProjectInlineConfiguration[] {
  return (projects ?? []).filter(
    (p): p is TestProjectInlineConfiguration =>
      typeof p === 'object' &&
      p !== null &&
      (p as TestProjectInlineConfiguration).test?.provide?.[BENCHMARK_MARK] === true,
  );
}

/**
 * The declared projects of a workspace package, as projects of the workspace's Vitest: rooted at the package and
 * extending its own configuration file (its plugins, aliases and the plugin instance that provides the run's
 * configuration), and declared for the package's root.
 */
export function forPackage(
  projects: readonly TestProjectInlineConfiguration[],
  root: string,
  configFile: string | undefined,
): TestProjectInlineConfiguration[] {
  return projects.map((project) => {
    const provide = project.test?.provide ?? {};
    const declared = provide[DECLARED_KEY] as DeclaredProjects | undefined;
    const { extends: _rootConfig, ...own } = project;
    return {
      ...own,
      ...(configFile ? { extends: configFile } : {}),
      root,
      test: {
        ...project.test,
        provide: {
          ...provide,
          [DECLARED_KEY]: {
            benchmark: declared?.benchmark ?? subjectProjectNames(projects),
            other: declared?.other ?? [],
            ...(declared?.dirs ? { dirs: declared.dirs } : {}),
            root,
          },
        },
      },
    };
  });
}
