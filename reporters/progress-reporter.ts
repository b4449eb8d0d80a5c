import type { Reporter, TestCase, TestModule, TestSpecification, Vitest } from 'vitest/node';
import { RUN_CONFIG_KEY } from '../src/config/resolve.js';
import type { SpendTotals } from '../src/schema/report.js';
import type { Prices } from '../src/schema/spend.js';
import { priceFor } from '../src/spend/price.js';
import { SUBJECTS_KEY } from '../src/vitest/context.js';
import type { CeilingbenchMeta } from '../src/vitest/meta.js';
import { configOf } from '../src/vitest/run-config.js';
import { shippedSpecTests } from '../src/vitest/spec-tests.js';
import { EtaClock, formatDuration } from './progress-eta.js';
import { assaySpentOf } from './projections/assay-spend.js';
import { cellSetAside, percent, samplesNote, thousands, usd } from './projections/format.js';
import { bounded, terminalSafe } from './projections/safe-text.js';
import { spendOf, spendOfTrials } from './projections/spend.js';

/** A name on the progress line (a test's, a project's): no control sequence, no line break. */
const shownName = (text: string): string => terminalSafe(text).replace(/\n/g, ' ');

/** An error message in the failure list: its head and tail when long (a provider's body can be a page). */
const shownError = (text: string): string => terminalSafe(bounded(text, 2_000));

/**
 * What the run has spent so far, from the records of the finished tests: requests sent, the tokens of the trials
 * sent in this run and of those answered from the response cache, and the cost when it is known (the provider's
 * figure, else the tokens at the configuration's prices; never shown when neither is known).
 */
export class SpendTally {
  calls = 0;
  /** Prompt + completion tokens sent in this run (of the cells' trials and of every call of the assays'). */
  tokens = 0;
  cacheHits = 0;
  /** Prompt + completion tokens of the trials answered from the response cache. */
  cachedTokens = 0;
  /** Answered trials (and calls) whose provider reported no usage: their tokens are unknown, in no sum. */
  unknownUsage = 0;
  /** USD paid so far; null once a record's cost is unknown. */
  cost: number | null = 0;
  saved: number | null = 0;
  private priced = false;

  constructor(private prices: Prices = {}) {}

  setPrices(prices: Prices): void {
    this.prices = prices;
  }

  add(meta: CeilingbenchMeta): void {
    const record = meta.record;
    const cells = [...(meta.cells ?? []), ...(record.kind === 'cell' ? [record] : [])];
    const price = priceFor(this.prices, meta.subject);
    for (const cell of cells) this.count(spendOfTrials(cell.trials, price));
    if (record.kind === 'scc' || record.kind === 'sccAssay') this.count(spendOf(assaySpentOf(record).billables, price));
  }

  private count(spend: SpendTotals): void {
    this.calls += spend.calls;
    this.tokens += spend.paid.prompt + spend.paid.completion;
    this.cacheHits += spend.fromCache.trials;
    this.cachedTokens += spend.fromCache.prompt + spend.fromCache.completion;
    this.unknownUsage += spend.unknownUsage;
    this.cost = this.cost === null || spend.paid.costUsd === null ? null : this.cost + spend.paid.costUsd;
    this.saved =
      this.saved === null || spend.fromCache.savedUsd === null ? null : this.saved + spend.fromCache.savedUsd;
    this.priced = true;
  }

  /**
   * `calls 40 · tokens 12,345 · cache hits 3 (2,100 tokens) · cost $0.0123 (saved $0.001)`; unknown usage is said,
   * never shown as 0: `tokens usage unknown` when no trial reported any, `tokens 12,345 (+ 2 trials usage unknown)`.
   */
  counters(): string {
    const hits = `cache hits ${this.cacheHits}${this.cacheHits > 0 ? ` (${thousands(this.cachedTokens)} tokens)` : ''}`;
    const saved = this.cacheHits > 0 && this.saved !== null ? ` (saved ${usd(this.saved)})` : '';
    const cost = this.priced && this.cost !== null ? ` · cost ${usd(this.cost)}${saved}` : '';
    const tokens =
      this.unknownUsage === 0
        ? thousands(this.tokens)
        : this.tokens === 0
          ? 'usage unknown'
          : `${thousands(this.tokens)} (+ ${this.unknownUsage} trials usage unknown)`;
    return `calls ${this.calls} · tokens ${tokens} · ${hits}${cost}`;
  }
}

/** A test module of a project (a file may run in several). */
const moduleKey = (project: string | undefined, moduleId: string | undefined): string =>
  `${project ?? ''}\u0000${moduleId ?? ''}`;

/** The tests a specification's file will hold when it is one of the shipped spec files; undefined otherwise. */
function plannedTestsOf(specification: TestSpecification) {
  const provided = specification.project?.getProvidedContext?.();
  const config = provided?.[RUN_CONFIG_KEY];
  if (!config || !specification.moduleId) return undefined;
  return shippedSpecTests(specification.moduleId, {
    design: config.design,
    trials: config.trials,
    subjects: provided[SUBJECTS_KEY]?.length ?? 1,
  });
}

/**
 * `ceilingbench run` progress: cells done/total, calls, tokens (sent and from the cache), cost when priced and
 * ETA — a redrawn bar on a TTY, one plain line per finished test otherwise (CI logs). Failures are listed at the end.
 */
export default class ProgressReporter implements Reporter {
  private total = 0;
  private done = 0;
  /** Tests reported skipped (a filter, `.skip`): counted apart from those that ran. */
  private skipped = 0;
  /**
   * The modules not collected yet: the tests a shipped spec file declares (known before it is collected, from the
   * configuration), or undefined for a file of the user’s, whose tests only collecting it tells.
   */
  private readonly pending = new Map<string, number | undefined>();
  private readonly clock = new EtaClock();
  private readonly spend = new SpendTally();
  private readonly started = Date.now();
  private readonly failures: string[] = [];
  private readonly tty: boolean;

  constructor() {
    this.tty = Boolean(process.stdout.isTTY) && !process.env.CI;
  }

  /** The prices come from the run's configuration, read as the report's reporter reads it. */
  async onInit(vitest: Vitest): Promise<void> {
    try {
      this.spend.setPrices((await configOf(vitest)).prices);
    } catch {
      // no configuration, no prices: the line shows tokens only (the report's reporter names the problem)
    }
  }

  private write(text: string): void {
    process.stdout.write(text);
  }

  /**
   * The total before the first cell: each shipped spec file's tests from the configuration (what the evidence
   * manifest and the plan read), as Vitest would collect them; a file of the user’s counts once collected, and
   * the line says so.
   */
  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    const own: string[] = [];
    for (const specification of specifications) {
      const key = moduleKey(specification.project?.name, specification.moduleId);
      if (this.pending.has(key)) continue;
      const known = plannedTestsOf(specification);
      this.pending.set(key, known?.tests);
      if (known) {
        this.total += known.tests;
        this.clock.plan(key, known.trials);
      } else own.push(specification.moduleId);
    }
    if (own.length > 0) {
      const known = this.total > 0 ? ` (the standard grids' ${this.total} are known now)` : '';
      this.write(
        `ceilingbench: the tests of ${own.length} test file(s) of your own are counted as Vitest collects them: the total reads ${this.total}+ until then${known}\n`,
      );
    }
  }

  onTestModuleCollected(module: TestModule): void {
    const key = moduleKey(module.project?.name, module.moduleId);
    // its tests replace what the configuration said of it (the same number for a shipped spec file)
    this.total -= this.pending.get(key) ?? 0;
    this.pending.delete(key);
    this.clock.forget(key);
    for (const test of module.children.allTests()) {
      this.total++;
      // a test a filter (`-t`) or `.skip` leaves out asks nothing: its trials are not waited for
      const skipped = test.options?.mode === 'skip' || test.options?.mode === 'todo';
      this.clock.plan(test.id, skipped ? 0 : (test.meta().ceilingbenchTrials ?? 0));
    }
  }

  /** `49`; `49+` while a file of the user’s is not collected (Vitest collects a file when a worker takes it up). */
  private totalText(): string {
    return `${this.total}${[...this.pending.values()].includes(undefined) ? '+' : ''}`;
  }

  onTestCaseResult(test: TestCase): void {
    this.done++;
    const meta = test.meta().ceilingbench as CeilingbenchMeta | undefined;
    const record = meta?.record;
    if (meta) this.spend.add(meta);
    const cells = [...(meta?.cells ?? []), ...(record?.kind === 'cell' ? [record] : [])];
    this.clock.finish(
      test.id,
      cells.reduce((sum, cell) => sum + cell.n - cell.cacheHits, 0),
    );
    let detail = '';
    // every accuracy and p_d with its set-aside share: 80% Format never hides behind a p_d of 1.000
    if (record?.kind === 'cell') {
      const samples = record.samples ? ` (${samplesNote(record)})` : '';
      detail = `accuracy ${percent(record.accuracy)} · set aside ${percent(cellSetAside(record))}${samples}`;
    } else if (record?.kind === 'retention') {
      // an insufficient fit has no estimate: the estimator's value on no data is never printed as one
      const aside = record.setAsideRate == null ? '' : ` · set aside ${percent(record.setAsideRate)}`;
      detail =
        record.status === 'insufficient'
          ? `p_d insufficient data${aside}`
          : `p_d ${record.pd.toFixed(3)} [${record.ci95[0].toFixed(3)}, ${record.ci95[1].toFixed(3)}]${aside}`;
    } else if (record?.kind === 'scc') {
      detail = `CC ${record.cc} (${record.ccLower}–${record.ccUpper ?? '∞'})`;
    } else if (record?.kind === 'collapse') {
      detail =
        record.status === 'insufficient'
          ? 'λ* insufficient data'
          : `λ* ${record.collapseThreshold.levelIndex ?? 'undefined'}`;
    }
    const result = test.result();
    if (result.state === 'skipped') this.skipped++;
    if (result.state === 'failed') {
      this.failures.push(
        `${shownName(test.project.name)} › ${shownName(test.fullName)}: ${shownError(result.errors?.[0]?.message ?? 'failed')}`,
      );
    }
    const counters = `${this.spend.counters()} · ${this.clock.eta()}`;
    if (this.tty) {
      const width = 24;
      const filled = this.total > 0 ? Math.min(width, Math.round((width * this.done) / this.total)) : 0;
      this.write(
        `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${this.done}/${this.totalText()} · ${counters}   `,
      );
    } else {
      const mark = result.state === 'failed' ? 'FAIL' : result.state === 'skipped' ? 'skip' : 'ok';
      this.write(
        `[${this.done}/${this.totalText()}] ${mark} ${shownName(test.project.name)} › ${shownName(test.name)}${detail ? ` — ${detail}` : ''} · ${counters}\n`,
      );
    }
  }

  onTestRunEnd(): void {
    if (this.tty) this.write('\n');
    for (const failure of this.failures) this.write(`FAIL ${failure}\n`);
    // a skipped test (a filter, `.skip`) did not run: it is neither passed nor failed, and said as such
    const skipped = this.skipped > 0 ? `, ${this.skipped} skipped` : '';
    this.write(
      `ceilingbench: ${this.done - this.skipped} tests in ${formatDuration(Date.now() - this.started)}, ${this.failures.length} failed${skipped} · ${this.spend.counters()}\n`,
    );
  }
}
