import { relative, sep } from 'node:path';
import type { TestCase, TestModule, TestProject, TestSuite } from 'vitest/node';
import {
  type CeilingbenchMeta,
  FIT_META_KEY,
  MODULE_STAMP_KEY,
  type ModuleStamp,
  SUBJECT_META_KEY,
} from '../src/vitest/meta.js';
import type { TestEntry } from './projections/build.js';
import { terminalSafe } from './projections/safe-text.js';

/** The tests a run collected, as the report's entries: each with its project, state, errors and ceilingbench record. */

export interface Collected {
  entries: TestEntry[];
  /** The spec files collected, per Vitest project, relative to the ceilingbench root. */
  files: Array<{ project: string; file: string }>;
  /** The projects of the modules collected (a module whose every test a filter skipped included). */
  projects: Set<string>;
  stamps: ModuleStamp[];
}

/**
 * The project a test's records and gates name: its Vitest project, with its subject's label in a run with several
 * subjects (`d2@gpt-4o`; the label is on the test's suite or the test, src/vitest/sweep.ts and scc.ts).
 */
function projectOfTest(test: TestCase, name: string): string {
  let node: TestCase | TestSuite | undefined = test;
  while (node) {
    const label = node.meta()[SUBJECT_META_KEY];
    if (label) return `${name}@${label}`;
    node = node.parent.type === 'suite' ? node.parent : undefined;
  }
  return name;
}

/**
 * `nameOf`: the name the plugin gave a Vitest project (declaredProjectName: Vitest 5's `bench (d2)` is `d2`).
 */
export function collect(
  modules: ReadonlyArray<TestModule>,
  root: string,
  cbRoot: string,
  nameOf: (project: TestProject) => string,
): Collected {
  const entries: TestEntry[] = [];
  const projects = new Set<string>();
  const stamps: ModuleStamp[] = [];
  const files: Collected['files'] = [];
  for (const module of modules) {
    const name = nameOf(module.project);
    projects.add(name);
    const specFile = relative(cbRoot, module.moduleId).split(sep).join('/');
    files.push({ project: name, file: specFile });
    const stamp = module.meta()[MODULE_STAMP_KEY];
    if (stamp) stamps.push(stamp);
    for (const test of module.children.allTests()) {
      const result = test.result();
      const meta = test.meta().ceilingbench as CeilingbenchMeta | undefined;
      const declares = test.meta()[FIT_META_KEY];
      const project = projectOfTest(test, name);
      projects.add(project);
      entries.push({
        project,
        name: terminalSafe(test.fullName),
        file: module.relativeModuleId ?? module.moduleId.replace(`${root}/`, ''),
        state: result.state,
        errors: (result.errors ?? []).map((e) => e.message),
        durationMs: test.diagnostic()?.duration ?? 0,
        meta,
        specFile,
        ...(declares ? { declares } : {}),
      });
    }
  }
  return { entries, files, projects, stamps };
}
