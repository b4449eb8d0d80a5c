import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { loadBaselineDir } from '../src/compare/load';
import { loadConfig } from '../src/config';
import { buildReport, type TestEntry } from '../src/report/build';
import { writeReportSet } from '../src/report/write';
import type { Report } from '../src/schema/report';
import type { CeilingbenchMeta } from '../src/vitest/meta';

const BENCHMARK_PROJECTS = new Set(['d1', 'd2', 'd3', 'scc', 'puzzles']);

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

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
    this.startedAt = new Date();
  }

  /** index.html + charts.vl.json beside the JSON; a chart failure never costs the JSON, JUnit or Markdown. */
  private async writeHtml(report: Report, outDir: string, root: string): Promise<void> {
    try {
      const { writeHtmlReport } = await import('../src/report/html');
      const baselines = loadBaselineDir(resolve(root, 'baselines'), (line) =>
        process.stderr.write(`ceilingbench: warning: ${line}\n`),
      );
      await writeHtmlReport(report, outDir, { baselines });
    } catch (error) {
      process.stderr.write(`ceilingbench: could not write the HTML report: ${(error as Error).message}\n`);
    }
  }

  async onTestRunEnd(modules: ReadonlyArray<TestModule>): Promise<void> {
    const root = this.vitest?.config.root ?? process.cwd();
    const entries = collect(modules, root);
    if (!entries.some((e) => e.meta || BENCHMARK_PROJECTS.has(e.project))) return;
    try {
      const config = await loadConfig(process.env, root);
      const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { version?: string };
      const finishedAt = new Date();
      const report = buildReport(entries, {
        version: pkg.version ?? '0.0.0',
        gitSha: gitSha(root),
        startedAt: this.startedAt.toISOString(),
        finishedAt: finishedAt.toISOString(),
        durationMs: finishedAt.getTime() - this.startedAt.getTime(),
      });
      const outDir = resolve(root, config.out);
      writeReportSet(report, entries, outDir);
      await this.writeHtml(report, outDir, root);
      const { missing, trials, missingRate, insufficientCells } = report.summary;
      if (missing > 0) {
        process.stderr.write(
          `ceilingbench: missing data: ${missing} of ${trials} trials (${(100 * (missingRate ?? 0)).toFixed(1)}%) ` +
            `are API failures, ${insufficientCells} cell(s) insufficient\n`,
        );
      }
      const failedGates = report.gates.filter((g) => g.mode === 'hard' && !g.passed);
      for (const gate of failedGates) process.stderr.write(`ceilingbench: ${gate.message}\n`);
      if (failedGates.length > 0) process.exitCode = 1;
      process.stdout.write(`ceilingbench: reports written to ${outDir}\n`);
    } catch (error) {
      process.stderr.write(`ceilingbench: could not write reports: ${(error as Error).message}\n`);
      process.exitCode = 2;
    }
  }
}
