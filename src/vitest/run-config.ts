import { resolve } from 'node:path';
import type { Vitest } from 'vitest/node';
import { ownReportFiles } from '../../reporters/projections/report-set.js';
import { ConfigError } from '../config/errors.js';
import { RUN_CONFIG_KEY, type RunConfig, resolveRunConfig } from '../config/resolve.js';
import type { SpendLimits } from '../schema/spend.js';
import { takeBatchPass } from '../spend/batch-pass.js';
import { stopLine } from '../spend/ledger.js';
import { isInterruptible, startLedgerServer } from '../spend/ledger-server.js';
import { priceFor } from '../spend/price.js';
import { createSubject } from '../subjects/create.js';
import type { SubjectIdentity } from '../subjects/subject.js';
import { isBenchmarkProject } from './benchmark-mark.js';

/** The part of Vitest's main-process API that resolving a run's configuration needs. */
export interface VitestHost {
  config: { root: string; mergeReports?: string; reporters?: ReadonlyArray<unknown> };
  import<T>(moduleId: string): Promise<T>;
  /** Called when Vitest closes: the spend ledger's server closes with it. */
  onClose?(fn: () => unknown): void;
}

/** Per Vitest instance, per ceilingbench root (Vitest's, or a workspace package's). */
const resolved = new WeakMap<object, Map<string, Promise<RunConfig>>>();

const hasLimit = (limits: SpendLimits): boolean => Object.values(limits).some((v) => v !== undefined);

/** Subjects whose trials cost: an endpoint's, or a function's (it calls one, as far as ceilingbench knows). */
const isPaid = (identity: SubjectIdentity): boolean => identity.kind === 'openai' || identity.kind === 'function';

/** A cost limit with nothing to price the subject's tokens at would stop nothing: a configuration error. */
function checkCostLimit(run: RunConfig, identity: SubjectIdentity): void {
  if (run.limits.maxCost === undefined || !isPaid(identity)) return;
  if (priceFor(run.prices, identity) !== null) return;
  throw new ConfigError(
    `a cost limit (--max-cost / CEILINGBENCH_MAX_COST / limits.maxCost = ${run.limits.maxCost}) needs a price for ` +
      `${identity.spec}: add prices: { '${identity.spec}': { input: <USD per 1M tokens>, output: <USD per 1M tokens> } } ` +
      'to ceilingbench.config.ts, or limit the run by --max-tokens / --max-calls instead',
  );
}

/**
 * The run's configuration, resolved once per Vitest instance and root — Vitest's root by default, a workspace
 * package's for the benchmark projects it declared — never against the current directory: ceilingbench.config.ts is loaded through Vitest's module runner, so TypeScript works on plain
 * Node. Each subject is built once (no request is sent) so that a bad subject, key or replay file is one
 * error before any worker starts, not one failed test per cell. A paid subject under a spending limit, or under
 * `ceilingbench run`, gets the run's spend ledger here (src/spend/ledger-server.ts), closed with Vitest; when it
 * stopped the run, its one line is printed then, after the report was written.
 */
export function runConfigFor(vitest: VitestHost, root: string = vitest.config.root): Promise<RunConfig> {
  const byRoot = resolved.get(vitest) ?? new Map<string, Promise<RunConfig>>();
  resolved.set(vitest, byRoot);
  const key = resolve(root);
  let config = byRoot.get(key);
  if (!config) {
    config = (async () => {
      const run = await resolveRunConfig({ root: key, importFile: (path) => vitest.import(path) });
      // a report folder holding the user's own files of the set's names is refused before the run, not after it
      // (CB_REPORT_FOLDER, reporters/projections/report-set.ts); a blob run writes no set there
      const blob = (vitest.config.reporters ?? []).some((r: unknown) => (Array.isArray(r) ? r[0] : r) === 'blob');
      if (!blob) ownReportFiles(run.outDir);
      // merging blobs sends no request: no subject is built (a merge job needs no key) and nothing is limited
      if (vitest.config.mergeReports) return run;
      // every subject of the run, one after the other: the first bad one is the error
      const identities: SubjectIdentity[] = [];
      for (const spec of run.subjects) {
        const subject = await createSubject(spec, {
          seed: run.seed,
          cacheDir: run.cacheDir,
          report: () => undefined,
          root: run.root,
          configFile: run.configFile,
          importModule: (path) => vitest.import(path),
        });
        await subject.close?.();
        checkCostLimit(run, subject.identity);
        identities.push(subject.identity);
      }
      // only requests cost money: sim, oracle and replay subjects have nothing to limit or to interrupt
      const interruptible = isInterruptible();
      const paid = identities.some(isPaid);
      // unpaid under `ceilingbench run`: no ledger, but the workers leave the first signal to the main process too
      if (!paid) return interruptible ? { ...run, interruptible } : run;
      if (!(hasLimit(run.limits) || interruptible)) return run;
      const service = await startLedgerServer(run.limits);
      // what a `run --batch` pass spent and held back before Vitest started counts against the same limits
      const pass = takeBatchPass();
      if (pass) service.ledger.spentBefore(pass);
      vitest.onClose?.(async () => {
        const line = stopLine(service.ledger.report());
        if (line) process.stderr.write(`${line}\n`);
        await service.close();
      });
      return { ...run, spendLedger: { url: service.url, interruptible } };
    })();
    byRoot.set(key, config);
  }
  return config;
}

/**
 * The configurations the plugin provided to the projects, one per ceilingbench root (Vitest's, or each ceilingbench
 * package of a workspace), a benchmark project's first: it knows the projects its root declared. Resolved here only
 * when the plugin is not in use.
 */
export async function configsOf(vitest: Vitest): Promise<RunConfig[]> {
  const projects = [...vitest.projects].sort((a, b) => Number(isBenchmarkProject(b)) - Number(isBenchmarkProject(a)));
  const byRoot = new Map<string, RunConfig>();
  for (const project of projects) {
    const provided = project.getProvidedContext()[RUN_CONFIG_KEY];
    if (provided && !byRoot.has(provided.root)) byRoot.set(provided.root, provided);
  }
  if (byRoot.size === 0) return [await runConfigFor(vitest)];
  // several (a workspace's packages): Vitest's root's first, then by root, in whatever order the projects resolved
  const rank = (config: RunConfig) => (config.root === vitest.config.root ? 0 : 1);
  const configs = [...byRoot.values()];
  return configs.length === 1 ? configs : configs.sort((a, b) => rank(a) - rank(b) || a.root.localeCompare(b.root));
}

/** The run's configuration: the first benchmark project's (the only one outside a workspace of several packages). */
export async function configOf(vitest: Vitest): Promise<RunConfig> {
  const [config] = await configsOf(vitest);
  return config;
}
