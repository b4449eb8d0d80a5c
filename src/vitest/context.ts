import { inject } from 'vitest';
import { ConfigError } from '../config/errors.js';
import { RUN_CONFIG_KEY, type RunConfig } from '../config/resolve.js';
import { createLedgerClient } from '../spend/ledger-client.js';
import { createSubject, subjectOfFunction } from '../subjects/create.js';
import type { DefinedSubject } from '../subjects/function/define.js';
import { functionEndpoint } from '../subjects/function/function-subject.js';
import type { Subject } from '../subjects/subject.js';
import { declaredProjectName, withSubject } from '../tasks/project-names.js';
import { workerModuleImporter } from './module-import.js';
import { PROJECT_PATTERNS_KEY, SUBJECTS_KEY } from './subject-keys.js';
import { leaveStopSignalsToMain } from './worker-signals.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's configuration, resolved once in the main process by the ceilingbench plugin. */
    ceilingbench: RunConfig;
    /** Set on the projects the ceilingbench plugin adds. */
    'ceilingbench:benchmark': boolean;
    /**
     * The subjects a benchmark project runs, in a run with several subjects (each names its records, tests and gate
     * key `d2@<label>`); absent with one (the run's subject).
     */
    'ceilingbench:subjects'?: ProjectSubject[];
    /** The `--project` patterns of `ceilingbench run`, as typed (`d2@gpt-4o`): they select subjects (provide.ts). */
    'ceilingbench:project-patterns'?: string[];
    /** Set on the projects the plugin adds: every project of the configuration, as the plugin declared them. */
    'ceilingbench:declared'?: { benchmark: string[]; other: string[]; root?: string; dirs?: Record<string, string> };
  }
}

/** A subject of a run with several: its spec, and the label in its test names, records and gate key (`d2@<label>`). */
export interface ProjectSubject {
  spec: string;
  label: string;
}

export { PROJECT_PATTERNS_KEY, SUBJECTS_KEY };

export interface RunContext {
  config: RunConfig;
  subject: Subject;
}

/**
 * The configuration the main process resolved and provided (`ceilingbench()` in vitest.config.ts, or the
 * ceilingbench reporter). A worker never resolves it itself: its current directory need not be the root.
 */
export function runConfig(): RunConfig {
  const config = inject(RUN_CONFIG_KEY);
  if (!config) {
    throw new ConfigError(
      "ceilingbench: no configuration was provided to this test — add `ceilingbench()` from 'ceilingbench/plugin' " +
        'to `plugins` in vitest.config.ts (or run `ceilingbench run`)',
    );
  }
  leaveStopSignalsToMainWhenInterruptible(config);
  return config;
}

/** Under `ceilingbench run` (or a paid subject with a limit), the first interrupt is the main process's to answer. */
function leaveStopSignalsToMainWhenInterruptible(config: RunConfig): void {
  if (config.spendLedger?.interruptible || config.interruptible) leaveStopSignalsToMain();
}

/**
 * The subjects the project this test file runs in describes, one block each: the project's own in a run with
 * several subjects, else `[undefined]` (the run's one subject, unlabelled). Several subjects without the plugin's
 * projects (the reporter without the plugin) would silently run the first only: an error.
 */
export function projectSubjects(config: RunConfig = runConfig()): Array<ProjectSubject | undefined> {
  const subjects = inject(SUBJECTS_KEY);
  if (subjects) return subjects;
  if (config.subjects.length <= 1) return [undefined];
  throw new ConfigError(
    `ceilingbench: the run has ${config.subjects.length} subjects (${config.subjects.join(', ')}) but this project ` +
      'runs none of them: several subjects need the projects the ceilingbench plugin adds',
  );
}

const contexts = new Map<string, Promise<RunContext>>();
const ownContexts = new WeakMap<DefinedSubject, Promise<RunContext>>();

/** A paid subject asks the run's spend ledger (in the main process) before sending each trial. */
const spendOf = (config: RunConfig) =>
  config.spendLedger ? { gate: createLedgerClient(config.spendLedger.url), prices: config.prices } : undefined;

/**
 * Config and subject, created once per worker and subject spec from the provided configuration: `of`, one of the
 * project's subjects (several subjects), else the run's one; with `own`, the subject a spec file passed itself
 * (`describeSweep(task, { subject })`) instead.
 */
export function runContext(own?: DefinedSubject, of?: ProjectSubject): Promise<RunContext> {
  const provided = runConfig();
  if (own) {
    let context = ownContexts.get(own);
    context ??= ownContext(provided, own);
    ownContexts.set(own, context);
    return context;
  }
  // a project of several subjects has no one subject: a test that asks for "the" subject would silently get one
  if (of === undefined && projectSubjects(provided)[0] !== undefined) {
    throw new ConfigError(
      `ceilingbench: this project runs ${provided.subjects.length} subjects (${provided.subjects.join(', ')}), so ` +
        'runContext() without a subject has none to give — describe the benchmark with describeSweep, ' +
        'describeAblation or the SCC tests, which run one block per subject',
    );
  }
  const spec = of?.spec ?? provided.subject;
  let context = contexts.get(spec);
  context ??= (async () => {
    const config = provided;
    const spend = spendOf(config);
    const subject = await createSubject(spec, {
      seed: config.seed,
      cacheDir: config.cacheDir,
      root: config.root,
      configFile: config.configFile,
      importModule: workerModuleImporter(config.root),
      ...(spend ? { spend } : {}),
      // batch mode: the run's openai trials were answered by batches into the cache; none is sent live
      openai: { ...(spend ? { spend } : {}), ...(config.batch !== false ? { batch: true } : {}) },
    });
    return { config, subject };
  })();
  contexts.set(spec, context);
  return context;
}

/**
 * A spec file's own subject. The main process never saw it, so it started no spend ledger for it: under a spending
 * limit that would be a limit silently not kept, so it is an error that says how to keep it (name the subject by
 * its module, where the main process sees it).
 */
async function ownContext(config: RunConfig, own: DefinedSubject): Promise<RunContext> {
  if (projectSubjects(config)[0] !== undefined) {
    throw new ConfigError(
      `ceilingbench: subject '${own.id}' was passed to the spec in a run of ${config.subjects.length} subjects, so ` +
        'every subject block would run it again — list it among the subjects instead ' +
        "(subjects: ['module:<path>#<export>', …]) and call describeSweep without { subject }",
    );
  }
  const limited = Object.values(config.limits).some((v) => v !== undefined);
  if (limited && !config.spendLedger) {
    throw new ConfigError(
      `ceilingbench: subject '${own.id}' was passed to the spec, so the run's spending limit cannot be kept for it — ` +
        "name it as a run subject instead (--subject module:<path>#<export>, or subjects: ['module:<path>#<export>'] " +
        'in ceilingbench.config.ts) and call describeSweep without { subject }',
    );
  }
  const spend = spendOf(config);
  return { config, subject: await subjectOfFunction(own, { cacheDir: config.cacheDir, ...(spend ? { spend } : {}) }) };
}

/** The spec that names a subject a spec file passed itself (`describeSweep(task, { subject })`) in its records. */
export const ownSubjectSpec = (own: DefinedSubject): string => functionEndpoint(own.id);

/** Instance seeds of a run: seed 0 reproduces the released CCB instances; seed s shifts every seed by s·10^6. */
export const seedOffsetFor = (runSeed: number): number => runSeed * 1_000_000;

/**
 * The project a test's gates are keyed by and its report names: its Vitest project, with its subject's label in a
 * run with several (`d2@gpt-4o`), falling back to the task's standard project outside a named project.
 */
export const vitestProjectOf = (
  test: { file: { projectName?: string } },
  fallback: string,
  subject?: ProjectSubject,
): string =>
  withSubject(
    declaredProjectName(test.file.projectName || fallback, inject(RUN_CONFIG_KEY)?.benchmarkProjects),
    subject?.label,
  );
