import type { Reporter, TestCase, TestModule } from 'vitest/node';
import type { CeilingbenchMeta } from './meta.js';

const formatSeconds = (ms: number): string =>
  ms < 60_000 ? `${Math.round(ms / 1000)}s` : `${Math.floor(ms / 60_000)}m${Math.round((ms % 60_000) / 1000)}s`;

/**
 * `ceilingbench run` progress: cells done/total, calls, tokens, cache hits and ETA — a redrawn bar on a
 * TTY, one plain line per finished test otherwise (CI logs). Failures are listed at the end.
 */
export default class ProgressReporter implements Reporter {
  private total = 0;
  private done = 0;
  private calls = 0;
  private tokens = 0;
  private cacheHits = 0;
  private readonly started = Date.now();
  private readonly failures: string[] = [];
  private readonly tty: boolean;

  constructor() {
    this.tty = Boolean(process.stdout.isTTY) && !process.env.CI;
  }

  private write(text: string): void {
    process.stdout.write(text);
  }

  onTestModuleCollected(module: TestModule): void {
    this.total += [...module.children.allTests()].length;
  }

  onTestCaseResult(test: TestCase): void {
    this.done++;
    const meta = test.meta().ceilingbench as CeilingbenchMeta | undefined;
    const record = meta?.record;
    let detail = '';
    if (record?.kind === 'cell') {
      this.calls += record.calls;
      this.tokens += record.tokens.prompt + record.tokens.completion;
      this.cacheHits += record.cacheHits;
      detail = `accuracy ${record.accuracy === null ? '–' : `${(100 * record.accuracy).toFixed(1)}%`}`;
    } else if (record?.kind === 'retention') {
      for (const cell of meta?.cells ?? []) {
        this.calls += cell.calls;
        this.tokens += cell.tokens.prompt + cell.tokens.completion;
        this.cacheHits += cell.cacheHits;
      }
      detail = `p_d ${record.pd.toFixed(3)} [${record.ci95[0].toFixed(3)}, ${record.ci95[1].toFixed(3)}]`;
    } else if (record?.kind === 'scc') {
      const result = record.result as { calls?: number; tokensSpent?: number };
      this.calls += result.calls ?? 0;
      this.tokens += result.tokensSpent ?? 0;
      detail = `CC ${record.cc} (${record.ccLower}–${record.ccUpper ?? '∞'})`;
    } else if (record?.kind === 'collapse') {
      detail = `λ* ${record.collapseThreshold.levelIndex ?? 'undefined'}`;
    }
    const result = test.result();
    if (result.state === 'failed') {
      this.failures.push(`${test.project.name} › ${test.fullName}: ${result.errors?.[0]?.message ?? 'failed'}`);
    }
    const elapsed = Date.now() - this.started;
    const eta = this.done > 0 ? (elapsed / this.done) * Math.max(0, this.total - this.done) : 0;
    const counters = `calls ${this.calls} · tokens ${this.tokens} · cache hits ${this.cacheHits} · ETA ${formatSeconds(eta)}`;
    if (this.tty) {
      const width = 24;
      const filled = this.total > 0 ? Math.round((width * this.done) / this.total) : 0;
      this.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${this.done}/${this.total} · ${counters}   `);
    } else {
      const mark = result.state === 'failed' ? 'FAIL' : 'ok';
      this.write(
        `[${this.done}/${this.total}] ${mark} ${test.project.name} › ${test.name}${detail ? ` — ${detail}` : ''} · ${counters}\n`,
      );
    }
  }

  onTestRunEnd(): void {
    if (this.tty) this.write('\n');
    for (const failure of this.failures) this.write(`FAIL ${failure}\n`);
    this.write(
      `ceilingbench: ${this.done} tests in ${formatSeconds(Date.now() - this.started)}, ${this.failures.length} failed\n`,
    );
  }
}
