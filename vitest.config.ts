// The plugin by the package's name (dist/), as a user's configuration imports it: `npm test`, `npm run test:quick`
// and `npm run bench` build dist/ first when src/, specs/ or reporters/ changed (scripts/built.js).
import module from 'node:module';
import { ceilingbench } from 'ceilingbench/plugin';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The test files that start child processes (a `vitest run` or `ceilingbench run`, a browser): minutes each, most
 * of it waiting on the child. `npm run test:quick` leaves them out; a full run starts them first.
 */
const CHILD_PROCESS_FILES = [
  'test/e2e/**',
  'test/reliability/**',
  'test/cli/plan.test.ts',
  'test/cli/polish-run.test.ts',
  'test/subjects/resume.test.ts',
  'test/report/html/*browser.test.ts',
];
/** A glob of the list as a test of an absolute path (`**` any folders, `*` within one). */
const globTest = (glob: string) =>
  new RegExp(
    `/${glob
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*\*/g, '\0')
      .replace(/\*/g, '[^/]*')
      .replace(/\0/g, '.*')}$`,
  );
const childProcessTests = CHILD_PROCESS_FILES.map(globTest);
const startsChildren = (file: string) => childProcessTests.some((test) => test.test(file));

/**
 * Vitest orders files by their last duration, else by size (large first): on a fresh clone the small end-to-end
 * files started late and the last of them ran alone for minutes. Files that start children go first, the
 * in-process files fill the cores around them and finish the run.
 */
class ChildrenFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return [...sorted.filter((f) => startsChildren(f.moduleId)), ...sorted.filter((f) => !startsChildren(f.moduleId))];
  }
}

// V8's compiled code cached on disk (Node >= 22.1, the OS temporary folder), as the `ceilingbench` command does for
// its runs: the variable reaches the workers and every child they start (`vitest run`, `ceilingbench run`, tsx),
// which each load Vitest, Vite and dist/ again; about 5% of a child's CPU.
const compileCache = module.enableCompileCache?.();
if (compileCache?.directory && process.env.NODE_COMPILE_CACHE === undefined) {
  process.env.NODE_COMPILE_CACHE = compileCache.directory;
}

// Our own repository uses the plugin as a user does: the standard benchmark projects (d1, d2, d3, puzzles,
// scc; spec files in specs/, shipped as dist/specs), the setup file and the reporter; plus our tests.
export default defineConfig({
  plugins: [ceilingbench({ specs: false })],
  test: {
    sequence: { sequencer: ChildrenFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          // npm sets npm_lifecycle_event to the script's name
          exclude: [
            ...configDefaults.exclude,
            ...(process.env.npm_lifecycle_event === 'test:quick' ? CHILD_PROCESS_FILES : []),
          ],
          setupFiles: ['./src/vitest/setup.ts'],
          // dist/ built from the current sources before any file runs (the end-to-end children run the package)
          globalSetup: ['./test/support/build-dist.ts'],
          // A guard against a hang, not a speed claim: an end-to-end test starts up to six child runs, and with
          // three files at once beside CI's consumer smoke test one child can take a minute on two cores.
          testTimeout: 600_000,
          // Vitest's default is cores − 1 workers: one on a 2-core machine, so the files ran one after another
          // while most of the slow ones sit blocked on a child process (a `vitest run` or `ceilingbench run`).
          // Three overlap that waiting; the in-process files keep both cores busy meanwhile. Every test owns its
          // temporary directories and loopback ports, so files never share them.
          maxWorkers: 3,
          // A worker runs file after file on the modules it already loaded, instead of a fresh process loading
          // some two hundred modules of src/ per file (about a second of CPU each: over a third of the suite's CPU). A
          // file that changes what those modules hold (registers a task family, mocks a module) reloads them after
          // itself (test/support/shared-worker.ts); loopback servers never reuse a port within a process
          // (test/support/loopback-port.ts), since what a subject learns of an endpoint is kept by its address.
          isolate: false,
        },
      },
    ],
  },
});
