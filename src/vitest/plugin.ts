import { existsSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin, TestProjectInlineConfiguration } from 'vitest/config';
import type { Vitest } from 'vitest/node';
import { ConfigError } from '../config/errors.js';
import { loadSubjects, nativeImport } from '../config/load.js';
import { RUN_CONFIG_KEY, type RunConfig } from '../config/resolve.js';
import { unknownGateKeys } from '../gates/index.js';
import { subjectLabels } from '../subjects/label.js';
import { BENCHMARK_MARK, isBenchmarkProject } from './benchmark-mark.js';
import { type ProjectSubject, SUBJECT_KEY } from './context.js';
import { standardProjects } from './names.js';

export { isBenchmarkProject };

import { runConfigFor } from './run-config.js';

/** A module beside this one: `name.js` in the built package, `name.ts` in the source tree. */
function sibling(name: string): string {
  const js = fileURLToPath(new URL(`./${name}.js`, import.meta.url));
  return existsSync(js) ? js : fileURLToPath(new URL(`./${name}.ts`, import.meta.url));
}

/** The standard grids, shipped with the package: one folder of spec files per standard project. */
const SPECS_DIR = fileURLToPath(new URL('../specs/', import.meta.url));
const SPEC_FILES = ['**/*.spec.{ts,mts,js,mjs}'];

export const SETUP_FILE = sibling('setup');
export const REPORTER_FILE = sibling('reporter');
export const PROGRESS_REPORTER_FILE = sibling('progress-reporter');

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
}

const DEFAULT_SPECS = 'benchmarks';

/**
 * One project per (project, subject) when a run has several subjects: `<project>@<label>`, providing its subject
 * to its workers; with one subject the project keeps its own name and provides none (the run's subject).
 */
function benchmarkProject(
  name: string,
  dir: string,
  options: CeilingbenchPluginOptions,
  subject: ProjectSubject | undefined,
): TestProjectInlineConfiguration {
  return {
    extends: true,
    test: {
      name: subject ? `${name}@${subject.label}` : name,
      dir,
      include: SPEC_FILES,
      exclude: ['**/node_modules/**', '**/*.d.ts'],
      setupFiles: [SETUP_FILE],
      testTimeout: options.testTimeout ?? 1_800_000,
      hookTimeout: 600_000,
      maxConcurrency: options.maxConcurrency ?? 10,
      provide: subject ? { [BENCHMARK_MARK]: true, [SUBJECT_KEY]: subject } : { [BENCHMARK_MARK]: true },
    },
  };
}

function userProjects(
  root: string,
  options: CeilingbenchPluginOptions,
  subjects: ReadonlyArray<ProjectSubject | undefined>,
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
  return subjects.map((subject) => benchmarkProject(name ?? basename(absolute), absolute, options, subject));
}

/** ceilingbench.config.ts before Vitest runs: through Vite's module runner (TypeScript on plain Node), writing nothing. */
async function importConfigFile(path: string, root: string): Promise<unknown> {
  if (!/\.[mc]?ts$/.test(path)) return nativeImport(path);
  const { runnerImport } = await import('vite');
  const { module } = await runnerImport(path, { root, configFile: false, logLevel: 'silent' });
  return module;
}

/**
 * The run's subjects, as the projects are declared (before `configureVitest` resolves the whole configuration):
 * with one subject, `[undefined]` (the projects as they always were); with several, each with its label.
 */
async function projectSubjects(root: string): Promise<Array<ProjectSubject | undefined>> {
  const specs = await loadSubjects(process.env, root, (path) => importConfigFile(path, root));
  if (specs.length === 1) return [undefined];
  const labels = subjectLabels(specs);
  return specs.map((spec, i) => ({ spec, label: labels[i] }));
}

/** The projects of the configuration as the plugin declared them (provided to each benchmark project). */
interface DeclaredProjects {
  /** The benchmark projects the plugin added, before any `--project` filter. */
  benchmark: string[];
  /** The names of the configuration's other inline projects. */
  other: string[];
}
const DECLARED_KEY = 'ceilingbench:declared' as const;

const checked = new WeakSet<object>();

/**
 * A gate key that names no project of the configuration (filtered out of this run or not) is a configuration
 * error before anything runs, with the projects it could mean: a mistyped key would gate nothing.
 */
function checkGateKeys(vitest: Vitest, run: RunConfig, names: readonly string[]): void {
  if (checked.has(vitest)) return;
  checked.add(vitest);
  const unknown = unknownGateKeys(run.gates, [...names, ...vitest.projects.map((p) => p.name)]);
  if (unknown.length > 0) throw new ConfigError(unknown.join('\n'));
}

/**
 * The Vitest plugin: adds the standard benchmark projects (the papers' grids, shipped with the package),
 * a project for the user's own spec folder, the matcher setup file and the reporter; resolves the
 * ceilingbench configuration once per run in the main process, against Vitest's root, and provides it to
 * every worker.
 *
 * ```ts
 * // vitest.config.ts
 * import { defineConfig } from 'vitest/config';
 * import { ceilingbench } from 'ceilingbench/plugin';
 * export default defineConfig({ plugins: [ceilingbench()] });
 * ```
 */
export function ceilingbench(options: CeilingbenchPluginOptions = {}): Plugin {
  return {
    name: 'ceilingbench',
    async config(userConfig) {
      // Projects inherit the root's plugins; only the root configuration adds the projects.
      if (userConfig.test?.name !== undefined) return undefined;
      const root = resolve(userConfig.root ?? process.cwd());
      const subjects = await projectSubjects(root);
      const names = options.projects === false ? [] : (options.projects ?? standardProjects());
      const known = standardProjects();
      const unknown = names.filter((n) => !known.includes(n));
      if (unknown.length > 0) {
        throw new ConfigError(
          `ceilingbench plugin: unknown standard project '${unknown.join(', ')}' — use some of ${known.join(', ')}`,
        );
      }
      const projects = names.flatMap((name) =>
        subjects.map((subject) => benchmarkProject(name, resolve(SPECS_DIR, name), options, subject)),
      );
      projects.push(...userProjects(root, options, subjects));
      // every benchmark project knows them all (each project loads its own copy of this plugin)
      const declared: DeclaredProjects = {
        benchmark: projects.map((p) => p.test?.name).filter((n): n is string => typeof n === 'string'),
        other: (userConfig.test?.projects ?? []).flatMap((p) => {
          const name = typeof p === 'object' && p !== null && 'test' in p ? p.test?.name : undefined;
          return typeof name === 'string' ? [name] : typeof name === 'object' && name ? [name.label] : [];
        }),
      };
      for (const project of projects)
        project.test = { ...project.test, provide: { ...project.test?.provide, [DECLARED_KEY]: declared } };
      const reporters = userConfig.test?.reporters === undefined ? ['default', REPORTER_FILE] : [REPORTER_FILE];
      return { test: { projects, reporters } };
    },
    async configureVitest({ vitest, project }) {
      const run = await runConfigFor(vitest);
      const subject = project.config.provide?.[SUBJECT_KEY] as ProjectSubject | undefined;
      if (subject && !run.subjects.includes(subject.spec)) {
        throw new ConfigError(
          `ceilingbench plugin: project '${project.name}' was declared for subject '${subject.spec}', which the ` +
            `resolved configuration does not list (${run.subjects.join(', ')}) — did CEILINGBENCH_SUBJECTS change while Vitest started?`,
        );
      }
      const declared = project.config.provide?.[DECLARED_KEY];
      if (declared) checkGateKeys(vitest, run, [...declared.benchmark, ...declared.other]);
      project.provide(RUN_CONFIG_KEY, {
        ...run,
        ...(declared ? { benchmarkProjects: declared.benchmark } : {}),
        ...(vitest.config.shard
          ? { shard: { index: vitest.config.shard.index, count: vitest.config.shard.count } }
          : {}),
      });
    },
  };
}
