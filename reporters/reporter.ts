import { resolve } from 'node:path';
import type { Reporter, TestModule, TestProject, Vitest } from 'vitest/node';
import { RUN_CONFIG_KEY, type RunConfig } from '../src/config/resolve.js';
import { ERROR_CODES, type ErrorCode, errorCodeOf } from '../src/errors.js';
import { hardFailures, undecidedPasses, unknownGateKeys } from '../src/gates/index.js';
import { servedModelNotes } from '../src/schema/provenance.js';
import { type Report, runBlockOf } from '../src/schema/report.js';
import { limitRecordAt } from '../src/spend/ledger-server.js';
import { redact, secretsFromEnv } from '../src/subjects/redact.js';
import { declaredProjectName } from '../src/tasks/project-names.js';
import { isBenchmarkProject } from '../src/vitest/benchmark-mark.js';
import { claimReportSet } from '../src/vitest/ensure-reporter.js';
import { REPORTER_MARK } from '../src/vitest/files.js';
import { runInterrupted } from '../src/vitest/interrupt-state.js';
import { manifestOf } from '../src/vitest/manifest.js';
import { configOf, configsOf } from '../src/vitest/run-config.js';
import { collect } from './collect.js';
import {
  markRunStarted,
  type ReportSetManifest,
  readReportSetManifest,
  restoreManifest,
  scrubReportSet,
  sealReportSet,
} from './projections/report-set.js';
import { terminalSafe } from './projections/safe-text.js';
import { firstApiIssue, providerStop } from './report-notes.js';
import {
  filtersOf,
  gitSha,
  hasHardGates,
  narrowedByChanges,
  refusedRetry,
  retriesOf,
  settingsOf,
  shardsOf,
  toolVersion,
  worse,
  writesBlob,
} from './run-facts.js';

/**
 * @public The ceilingbench reporter (`ceilingbench/reporter`, for `reporters` without the plugin).
 * Writes the report set (JSON source of truth, JUnit, Markdown, HTML) after every run that is a benchmark run:
 * one whose filters selected a benchmark project, or that collected a module of one, or that produced a record.
 * Its exit code is a function of the configured gates and what was measured (src/gates), not of the route: a
 * hard gate that failed, a configured hard gate nothing evaluated (its project filtered out, its fit skipped, its
 * shard not merged), shards missing from a merge, or a report that could not be written make it non-zero.
 */
export default class CeilingbenchReporter implements Reporter {
  readonly [REPORTER_MARK] = true;
  private vitest?: Vitest;
  private startedAt = new Date();

  async onInit(vitest: Vitest): Promise<void> {
    // one report set per run: a second ceilingbench reporter of the same Vitest stays silent
    if (!claimReportSet(vitest, this)) return;
    this.vitest = vitest;
    this.startedAt = new Date();
    // Without the plugin, the reporter resolves the configuration and provides it, so that the workers and
    // the gates below read the same one.
    const config = await configOf(vitest);
    for (const project of vitest.projects) {
      if (!project.getProvidedContext()[RUN_CONFIG_KEY]) project.provide(RUN_CONFIG_KEY, config);
    }
    // the folder's set is marked as superseded by a running run until this run's set is written: a run killed
    // meanwhile leaves `state: running` for report, compare and a CI upload to see (reporters/projections/report-set.ts)
    if (!writesBlob(vitest)) this.markStarted(config.outDir);
  }

  /** The run's id: its start time and process (no randomness: reports stay a function of the seed). */
  private get run(): { id: string; startedAt: string } {
    const startedAt = this.startedAt.toISOString();
    return { id: `${startedAt}-p${process.pid}`, startedAt };
  }

  private readonly marked = new Map<string, ReportSetManifest | undefined>();

  private markStarted(outDir: string): void {
    try {
      this.marked.set(outDir, readReportSetManifest(outDir));
      markRunStarted(outDir, this.run);
    } catch (error) {
      process.stderr.write(
        `ceilingbench: ${terminalSafe(`could not mark the report set in ${outDir}: ${(error as Error).message}`)}\n`,
      );
    }
  }

  /** A marked folder whose run wrote no set (no benchmark ran, a blob run): its previous manifest, put back. */
  private unmark(outDir: string): void {
    if (!this.marked.has(outDir)) return;
    try {
      restoreManifest(outDir, this.marked.get(outDir));
    } catch {
      // the folder was removed meanwhile: nothing to put back
    }
    this.marked.delete(outDir);
  }

  /** index.html + charts.vl.json beside the JSON; a chart failure never costs the JSON, JUnit or Markdown. */
  private async writeHtml(report: Report, outDir: string, root: string): Promise<void> {
    try {
      const [{ writeHtmlReport }, { loadBaselineDir }] = await Promise.all([
        import('./projections/html/index.js'),
        import('../src/compare/load.js'),
      ]);
      const baselines = loadBaselineDir(resolve(root, 'baselines'), (line) =>
        process.stderr.write(`ceilingbench: warning: ${terminalSafe(line)}\n`),
      );
      await writeHtmlReport(report, outDir, { baselines });
    } catch (error) {
      process.stderr.write(
        `ceilingbench: could not write the HTML report: ${terminalSafe((error as Error).message)}\n`,
      );
    }
  }

  async onTestRunEnd(modules: ReadonlyArray<TestModule>): Promise<void> {
    const vitest = this.vitest;
    if (!vitest) return;
    // a run that writes a blob is judged when its blobs are merged (a shard alone lacks the other shards' projects)
    if (writesBlob(vitest)) {
      for (const outDir of [...this.marked.keys()]) this.unmark(outDir);
      process.stdout.write(
        'ceilingbench: blob run — the report set and the gates come with `vitest --merge-reports`\n',
      );
      return;
    }
    let configs: RunConfig[];
    try {
      configs = await configsOf(vitest);
    } catch (error) {
      process.stderr.write(`ceilingbench: ${terminalSafe(`could not write reports: ${(error as Error).message}`)}\n`);
      process.exitCode = 2;
      return;
    }
    // one report set per ceilingbench root, each of the modules and projects its configuration was provided to; a
    // project provided none (or another's) belongs to the first
    const rootOf = (project: TestProject): string => {
      const root = project.getProvidedContext()[RUN_CONFIG_KEY]?.root;
      return root !== undefined && configs.some((c) => c.root === root) ? root : configs[0].root;
    };
    if (configs.length === 1) return this.writeReports(vitest, configs[0], modules, vitest.projects);
    for (const config of configs) {
      const before = process.exitCode;
      const mine = (project: TestProject) => rootOf(project) === config.root;
      await this.writeReports(
        vitest,
        config,
        modules.filter((m) => mine(m.project)),
        vitest.projects.filter(mine),
      );
      process.exitCode = worse(before, process.exitCode);
    }
  }

  /** The report set of one ceilingbench root, from the modules and projects of its configuration. */
  private async writeReports(
    vitest: Vitest,
    config: RunConfig,
    modules: ReadonlyArray<TestModule>,
    ownProjects: ReadonlyArray<TestProject>,
  ): Promise<void> {
    const root = config.root;
    const nameOf = (project: TestProject) => declaredProjectName(project.name, config.benchmarkProjects);
    const { entries, files, projects, stamps } = collect(modules, vitest.config.root, root, nameOf);
    const benchmark = new Set(ownProjects.filter(isBenchmarkProject).map(nameOf));
    const selected = (vitest.config.project ?? []).length > 0 && benchmark.size > 0;
    const touched = [...projects].some((p) => benchmark.has(p)) || entries.some((e) => e.meta);
    // Nothing collected is not a pass when hard gates exist: `--changed` or `related` that selected no benchmark
    // spec file (a change to ceilingbench.config.* or to the subject changes no spec file), or an empty selection
    // under --passWithNoTests, is judged like any run: its needed records are missing, the gates fail (docs/ci.md)
    const unchecked = hasHardGates(config) && benchmark.size > 0 && (modules.length === 0 || narrowedByChanges(vitest));
    if (!selected && !touched && !unchecked && !(vitest.config.mergeReports && stamps.length > 0)) {
      this.unmark(config.outDir);
      return;
    }
    const secrets = secretsFromEnv(process.env);
    const write = (line: string) => process.stderr.write(`ceilingbench: ${terminalSafe(redact(line, secrets))}\n`);
    try {
      // loaded when the run ends, not at start-up (they are a tenth of a second of module loading before the first cell)
      const [{ buildReport }, { clearReportSet, writeReportSet }] = await Promise.all([
        import('./projections/build.js'),
        import('./projections/write.js'),
      ]);
      const declared = config.benchmarkProjects ?? [...benchmark];
      const known = [...new Set([...declared, ...vitest.projects.map((p) => p.name)])];
      // a gate key that names no project is a configuration error: the plugin refuses it at start-up; here only
      // when the reporter runs without the plugin
      const unknown = unknownGateKeys(config.gates, known);
      for (const line of unknown) write(line);
      // only a merge of blobs holds shards (and can lack some); a `--shard i/n` run is one shard, narrowed like a filter
      const shards = vitest.config.mergeReports ? shardsOf(stamps) : undefined;
      // the records each hard gate needs, from the configuration and the declared spec files (not from what ran)
      const requirements = manifestOf(config);
      const finishedAt = new Date();
      const state = runInterrupted() ? 'interrupted' : 'finished';
      const built = buildReport(entries, {
        version: toolVersion(),
        gates: config.gates,
        gitSha: gitSha(root),
        startedAt: this.startedAt.toISOString(),
        finishedAt: finishedAt.toISOString(),
        durationMs: finishedAt.getTime() - this.startedAt.getTime(),
        prices: config.prices,
        spendLimit: limitRecordAt(config.spendLedger?.url),
        scope: { declared, filters: filtersOf(vitest), ...refusedRetry(vitest), ...(shards ? { shards } : {}) },
        settings: settingsOf(config, vitest),
        ...(requirements
          ? {
              manifest: {
                requirements,
                collected: files,
                ...(vitest.config.testNamePattern
                  ? { nameFilter: terminalSafe(vitest.config.testNamePattern.source) }
                  : {}),
              },
            }
          : {}),
      });
      // the run that wrote it, and what an interruption cut: the same id and state as the set's manifest
      const report: Report = { ...built, run: runBlockOf(this.run, state, built.cells) };
      const outDir = config.outDir;
      // the set is written as a whole: no file of the previous run's set stays beside this run's
      clearReportSet(outDir);
      writeReportSet(report, entries, outDir);
      if (config.html) await this.writeHtml(report, outDir, root);
      scrubReportSet(outDir, secretsFromEnv(process.env));
      sealReportSet(outDir, this.run, state);
      this.marked.delete(outDir);
      const { missing, trials, missingRate, insufficientCells } = report.summary;
      // the cells whose set-aside share (Format, Truncation under the paper rule; api; budget) made them insufficient
      const setAside = report.cells.reduce((sum, c) => sum + (c.setAside ?? c.missing), 0);
      if (setAside > missing && insufficientCells > 0)
        write(
          `set-aside data: ${setAside} of ${trials} trials (${(100 * (setAside / Math.max(1, trials))).toFixed(1)}%) ` +
            `are missing or set aside (api, budget, and under the paper rule Format and Truncation), ${insufficientCells} cell(s) insufficient`,
        );
      if (missing > 0) {
        write(
          `missing data: ${missing} of ${trials} trials (${(100 * (missingRate ?? 0)).toFixed(1)}%) ` +
            `are missing (API failures or not sent), ${insufficientCells} cell(s) insufficient`,
        );
        // the provider's own words, unless the stop line below says them
        const api = firstApiIssue(report);
        if (api && !providerStop(report)) write(`first API failure: ${api.slice(0, 400)}`);
      }
      const cut = report.run?.cut;
      if (state === 'interrupted' && cut)
        write(
          `interrupted: ${cut.inFlight + cut.notSent} trial(s) cut — ${cut.inFlight} in flight (their requests ` +
            `aborted), ${cut.notSent} not sent — recorded as \`budget\` (missing data); the cells the cancel skipped ` +
            'are counted as skipped, not measured; a rerun resumes from the response cache',
        );
      const shard = vitest.config.shard;
      if (shard && !vitest.config.mergeReports)
        write(
          `this run is shard ${shard.index}/${shard.count}: its report holds this shard's tests only; to judge the ` +
            'whole run, run each shard with --reporter=blob and merge them with `vitest --merge-reports` (docs/ci.md)',
        );
      const scope = report.scope;
      if (scope && scope.notRun.length > 0)
        write(`not run: ${scope.notRun.join(', ')}${scope.filters ? ` (filters: ${scope.filters})` : ''}`);
      const foreign = report.cells.flatMap((c) => c.trials).filter((t) => t.cacheMismatch !== undefined);
      if (foreign.length > 0)
        write(
          `cache: ${foreign.length} entr${foreign.length === 1 ? 'y' : 'ies'} under a trial's key belonged to another request ` +
            `and were not served (counted as misses; asked again): ${foreign[0].cacheMismatch}`,
        );
      // the model that answered is said when it is not the one asked for (the servedModel gate decides on it)
      for (const note of report.provenance ? servedModelNotes(report.provenance) : []) write(note);
      const retry = retriesOf(vitest);
      if (retry > 0 && touched)
        write(
          `retry ${retry} refused for the measuring tests (cells, fits, adaptive designs, SCC assays): each is ` +
            'measured once and its failure stands; a retry would re-measure until a pass (docs/ci.md)',
        );
      const failedGates = hardFailures(report.gates);
      for (const gate of failedGates) write(gate.message);
      // an advisory gate does not change the exit code, but its failure is said
      for (const gate of report.gates.filter((g) => g.mode === 'advisory' && !g.passed))
        write(`${gate.message} — advisory: the run does not fail on it`);
      // a pass its sample could not decide is said too: it may be luck (docs/gates.md#sample-size)
      for (const gate of undecidedPasses(report.gates)) write(gate.message);
      for (const test of report.tests.filter((t) => t.project === '*')) write(test.errors.join('; '));
      if (failedGates.length > 0 || report.tests.some((t) => t.project === '*')) process.exitCode = 1;
      if (unknown.length > 0) process.exitCode = ERROR_CODES.CB_CONFIG.exit;
      const stopped = providerStop(report);
      if (stopped) {
        // one message for the whole run, and its own exit code: not one failed trial at a time
        write(stopped);
        process.exitCode = ERROR_CODES.CB_PROVIDER_FATAL.exit;
      }
      process.stdout.write(`ceilingbench: reports written to ${outDir}\n`);
    } catch (error) {
      write(`could not write reports: ${(error as Error).message}`);
      process.exitCode = errorCodeOf(error) ? ERROR_CODES[errorCodeOf(error) as ErrorCode].exit : 2;
    }
  }
}
