import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { loadBaselineDir } from '../compare/load.js';
import { RUN_CONFIG_KEY, type RunConfig } from '../config/resolve.js';
import { ERROR_CODES } from '../errors.js';
import { buildReport, type TestEntry } from '../report/build.js';
import { writeReportSet } from '../report/write.js';
import type { Report } from '../schema/report.js';
import { limitRecordAt } from '../spend/ledger-server.js';
import type { CeilingbenchMeta } from './meta.js';
import { standardProjects } from './names.js';
import { runConfigFor } from './run-config.js';

/** The message of the first trial a provider-fatal condition stopped (src/subjects/openai), if any. */
function providerStop(report: Report): string | undefined {
  const marker = `run stopped (CB_PROVIDER_FATAL)`;
  for (const cell of report.cells)
    for (const trial of cell.trials) {
      const issue = trial.outcome.issues.find((i) => i.startsWith(marker));
      if (issue) return issue;
    }
  return undefined;
}

/** ceilingbench's own version (not the user's package): package.json two levels above src/ or dist/. */
function toolVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      name?: string;
      version?: string;
    };
    return pkg.name === 'ceilingbench' && pkg.version ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/** The configuration the plugin provided to the projects; resolved here only when the plugin is not in use. */
export async function configOf(vitest: Vitest): Promise<RunConfig> {
  for (const project of vitest.projects) {
    const provided = project.getProvidedContext()[RUN_CONFIG_KEY];
    if (provided) return provided;
  }
  return runConfigFor(vitest);
}

function gitSha(root: string): string | null {
  const fromEnv = process.env.CEILINGBENCH_GIT_SHA ?? process.env.GITHUB_SHA;
  if (fromEnv) return fromEnv;
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return null;
  }
}

function collect(modules: ReadonlyArray<TestModule>, root: string): TestEntry[] {
  const entries: TestEntry[] = [];
  for (const module of modules) {
    for (const test of module.children.allTests()) {
      const result = test.result();
      const meta = test.meta().ceilingbench as CeilingbenchMeta | undefined;
      entries.push({
        project: test.project.name,
        name: test.fullName,
        file: module.relativeModuleId ?? module.moduleId.replace(`${root}/`, ''),
        state: result.state,
        errors: (result.errors ?? []).map((e) => e.message),
        durationMs: test.diagnostic()?.duration ?? 0,
        meta,
      });
    }
  }
  return entries;
}

/**
 * Writes the report set (JSON source of truth, JUnit, Markdown) after every run that touched a
 * benchmark project. A hard gate that failed makes the process exit non-zero even if every test passed
 * (e.g. when merging shard blobs).
 */
export default class CeilingbenchReporter implements Reporter {
  private vitest?: Vitest;
  private startedAt = new Date();

  async onInit(vitest: Vitest): Promise<void> {
    this.vitest = vitest;
    this.startedAt = new Date();
    // Without the plugin, the reporter resolves the configuration and provides it, so that the workers and
    // the gates below read the same one.
    const config = await configOf(vitest);
    for (const project of vitest.projects) {
      if (!project.getProvidedContext()[RUN_CONFIG_KEY]) project.provide(RUN_CONFIG_KEY, config);
    }
  }

  /** index.html + charts.vl.json beside the JSON; a chart failure never costs the JSON, JUnit or Markdown. */
  private async writeHtml(report: Report, outDir: string, root: string): Promise<void> {
    try {
      const { writeHtmlReport } = await import('../report/html/index.js');
      const baselines = loadBaselineDir(resolve(root, 'baselines'), (line) =>
        process.stderr.write(`ceilingbench: warning: ${line}\n`),
      );
      await writeHtmlReport(report, outDir, { baselines });
    } catch (error) {
      process.stderr.write(`ceilingbench: could not write the HTML report: ${(error as Error).message}\n`);
    }
  }

  async onTestRunEnd(modules: ReadonlyArray<TestModule>): Promise<void> {
    const vitest = this.vitest;
    if (!vitest) return;
    const root = vitest.config.root;
    const entries = collect(modules, root);
    const standard = new Set(standardProjects());
    const standardOf = (project: string) => project.replace(/@[^@]*$/, '');
    if (!entries.some((e) => e.meta || standard.has(standardOf(e.project)))) return;
    try {
      const config = await configOf(vitest);
      const ran = vitest.projects.map((p) => p.name);
      for (const key of Object.keys(config.gates)) {
        // a key `d2` also names the per-subject projects `d2@<label>` of a run with several subjects
        if (!ran.some((name) => name === key || name.startsWith(`${key}@`)))
          process.stderr.write(`ceilingbench: warning: gates for '${key}' name no project of this run\n`);
      }
      const finishedAt = new Date();
      const report = buildReport(entries, {
        version: toolVersion(),
        gates: config.gates,
        gitSha: gitSha(root),
        startedAt: this.startedAt.toISOString(),
        finishedAt: finishedAt.toISOString(),
        durationMs: finishedAt.getTime() - this.startedAt.getTime(),
        prices: config.prices,
        spendLimit: limitRecordAt(config.spendLedger?.url),
      });
      const outDir = config.outDir;
      writeReportSet(report, entries, outDir);
      await this.writeHtml(report, outDir, root);
      const { missing, trials, missingRate, insufficientCells } = report.summary;
      if (missing > 0) {
        process.stderr.write(
          `ceilingbench: missing data: ${missing} of ${trials} trials (${(100 * (missingRate ?? 0)).toFixed(1)}%) ` +
            `are missing (API failures or not sent), ${insufficientCells} cell(s) insufficient\n`,
        );
      }
      const failedGates = report.gates.filter((g) => g.mode === 'hard' && !g.passed);
      for (const gate of failedGates) process.stderr.write(`ceilingbench: ${gate.message}\n`);
      if (failedGates.length > 0) process.exitCode = 1;
      const stopped = providerStop(report);
      if (stopped) {
        // one message for the whole run, and its own exit code: not one failed trial at a time
        process.stderr.write(`ceilingbench: ${stopped}\n`);
        process.exitCode = ERROR_CODES.CB_PROVIDER_FATAL.exit;
      }
      process.stdout.write(`ceilingbench: reports written to ${outDir}\n`);
    } catch (error) {
      process.stderr.write(`ceilingbench: could not write reports: ${(error as Error).message}\n`);
      process.exitCode = 2;
    }
  }
}
