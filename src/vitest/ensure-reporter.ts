import type { Vitest } from 'vitest/node';
import { isCeilingbenchReporterEntry, REPORTER_FILE } from './files.js';

/**
 * A `--reporter` on the command line replaces the configuration's reporters (`dot`, `junit`, `github-actions`…):
 * without this, the verdict of the configured gates and the report set were switched off by a flag, and the previous
 * run's reports/ stayed for CI to upload. The plugin's `configureVitest` runs after Vitest resolved its reporters
 * and before it creates them (Vitest 4.1 and 5): ceilingbench's reporter is added to whatever the list holds, never
 * taking anything out of it. Idempotent: a list that has it (by file, specifier or instance) is left as it is.
 */
export function ensureReporter(vitest: Vitest): void {
  const reporters = (vitest.config as { reporters?: unknown }).reporters;
  if (!Array.isArray(reporters) || reporters.some(isCeilingbenchReporterEntry)) return;
  reporters.push([REPORTER_FILE, {}]);
}

const OWNER = Symbol.for('ceilingbench:report-owner');

/**
 * Whether this reporter instance writes the run's report set: the first one Vitest initialises does; another (a
 * copy by file beside `ceilingbench run`'s instance, a second module graph's) stays silent, so that the set is built
 * once and summary.md is appended to $GITHUB_STEP_SUMMARY once, on every Vitest major.
 */
export function claimReportSet(vitest: Vitest, reporter: object): boolean {
  const host = vitest as unknown as Record<symbol, object | undefined>;
  if (host[OWNER] !== undefined && host[OWNER] !== reporter) return false;
  host[OWNER] = reporter;
  return true;
}
