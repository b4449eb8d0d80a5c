import type {} from 'vitest';
import type { FitDeclaration } from '../schema/manifest.js';
import type { CeilingbenchMeta } from '../schema/meta.js';

/**
 * The Vitest carrier of a test's record: Vitest's `task.meta` holds it under the namespaced key `ceilingbench`.
 * The record itself is a schema (src/schema/meta.ts); this module adds only the TaskMeta augmentation, and
 * ceilingbench/vitest exports the record types from here under the names it has always had.
 */
// Through 'vitest' itself: Vitest 5 folds @vitest/runner into it (no such module to augment), and 4.1 re-exports
// the same interface from it, so this one augmentation types task.meta on both majors.
declare module 'vitest' {
  interface TaskMeta {
    ceilingbench?: CeilingbenchMeta;
    /** On a test module: the run's stamp (src/vitest/setup.ts). */
    ceilingbenchRun?: ModuleStamp;
    /**
     * On a subject's suite or test, in a run with several subjects: its label, which the reporter adds to the
     * project the test ran in (`d2` → `d2@<label>`), also for a test that never ran.
     */
    ceilingbenchSubject?: string;
    /** On a cell's test, from its declaration: the trials it will ask (the progress line's ETA). */
    ceilingbenchTrials?: number;
    /** On a fit test, from collection on: the record it produces, so a skipped one still says what it would have. */
    ceilingbenchFit?: FitDeclaration;
  }
}

/** The key of the run's stamp on a test module's meta (src/vitest/setup.ts). */
export const MODULE_STAMP_KEY = 'ceilingbenchRun';

/** The key of a cell test's planned trials on its meta, set when the test is declared. */
export const PLANNED_TRIALS_KEY = 'ceilingbenchTrials';
/** The key of a fit test's declaration on its meta. */
export const FIT_META_KEY = 'ceilingbenchFit';

/** A fit test's options carrying its declaration (Vitest 4.1 and 5 read `meta` in test options). */
export const declaring = (fit: FitDeclaration) => ({ meta: { [FIT_META_KEY]: fit } });

/**
 * A measuring test (a cell, a fit, an adaptive design, an SCC ladder or assay) is never retried: Vitest's `--retry`
 * (or `retry` in a configuration) would re-measure it until it passed, and the failed attempts were recorded
 * nowhere. The test's own option wins over the run's (Vitest 4.1 and 5); the reporter says the retry was refused.
 * A fresh object each time: Vitest writes into the options object a test is given (`concurrent` of a
 * `test.concurrent`), which would carry over to the next test given the same object (a fit run beside its cells).
 */
export const notRetried = (): { retry: 0 } => ({ retry: 0 });

/** The key of a subject's label on a suite's or test's meta. */
export const SUBJECT_META_KEY = 'ceilingbenchSubject';

/** What every benchmark module carries to the reporter, through blobs too: which shard ran it. */
export interface ModuleStamp {
  shard: { index: number; count: number } | null;
}

export type { CeilingbenchMeta, CeilingbenchRecord } from '../schema/meta.js';
export type { SccAssayRecord as SccAssayMetaRecord, SccRecord as SccMetaRecord } from '../schema/report.js';
